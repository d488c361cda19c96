# keli_layer(NAME DIRS folder... [DEPENDS layer...] [LIBS target...]): a static library
# keli_NAME of the .cpp files in those interpreter/ folders, linking the layers it depends on.
# A layer may include headers of its own folders and of every layer below it (transitively);
# keli_layer_check() writes that table and makes the build fail on any other include.
function(keli_layer name)
  cmake_parse_arguments(L "" "" "DIRS;DEPENDS;LIBS" ${ARGN})
  set(sources)
  set(allowed ${L_DIRS})
  foreach(dir IN LISTS L_DIRS)
    file(GLOB found CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${dir}/*.cpp)
    list(APPEND sources ${found})
  endforeach()
  add_library(keli_${name} STATIC ${sources})
  target_include_directories(keli_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_options(keli_${name} PRIVATE ${KELI_WARNINGS})
  foreach(dep IN LISTS L_DEPENDS)
    if(NOT TARGET keli_${dep})
      message(FATAL_ERROR "layer ${name} depends on ${dep}, which is not declared before it")
    endif()
    target_link_libraries(keli_${name} PUBLIC keli_${dep})
    get_property(below GLOBAL PROPERTY KELI_LAYER_ALLOWED_${dep})
    list(APPEND allowed ${below})
  endforeach()
  target_link_libraries(keli_${name} PUBLIC ${L_LIBS})
  list(REMOVE_DUPLICATES allowed)
  set_property(GLOBAL PROPERTY KELI_LAYER_ALLOWED_${name} ${allowed})
  set_property(GLOBAL APPEND PROPERTY KELI_LAYERS ${name})
  string(REPLACE ";" "," allowed_csv "${allowed}")
  foreach(dir IN LISTS L_DIRS)
    set_property(GLOBAL APPEND PROPERTY KELI_LAYER_TABLE "${dir}:${allowed_csv}")
  endforeach()
endfunction()

# Writes build/layers.txt (one line per folder: `folder:allowed,folders`) and a check that runs
# before any layer is compiled, again whenever a source file changes.
function(keli_layer_check)
  get_property(table GLOBAL PROPERTY KELI_LAYER_TABLE)
  string(REPLACE ";" "\n" text "${table}")
  set(table_file ${CMAKE_BINARY_DIR}/layers.txt)
  file(WRITE ${table_file} "${text}\n")
  file(GLOB_RECURSE all CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp ${CMAKE_CURRENT_SOURCE_DIR}/*.hpp)
  set(stamp ${CMAKE_BINARY_DIR}/layers.checked)
  add_custom_command(OUTPUT ${stamp}
                     COMMAND ${CMAKE_COMMAND} -DROOT=${CMAKE_CURRENT_SOURCE_DIR} -DTABLE=${table_file}
                             -DSTAMP=${stamp} -P ${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake
                     DEPENDS ${all} ${table_file} ${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake
                     COMMENT "Checking that no layer includes a layer above it")
  add_custom_target(keli_layers_checked DEPENDS ${stamp})
  get_property(layers GLOBAL PROPERTY KELI_LAYERS)
  foreach(l IN LISTS layers)
    add_dependencies(keli_${l} keli_layers_checked)
  endforeach()
endfunction()
