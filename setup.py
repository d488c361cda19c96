# Builds the extension module keli with the project's CMake (the layers it links are C++20 static
# libraries, which only CMake builds): `pip install --no-build-isolation .` from the checkout.
# KELI_BUILD_DIR names a CMake build folder to use (an existing one is only brought up to date;
# default: build-pip/); KELI_JOBS the parallel jobs (default 2). The module keeps the checkout's
# stdlib/ and games/ as its library, as the keli command does.
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
os.makedirs(os.path.join(ROOT, "build-pip"), exist_ok=True)  # setuptools' metadata and build folders


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.path.abspath(os.environ.get("KELI_BUILD_DIR", os.path.join(ROOT, "build-pip")))
        jobs = os.environ.get("KELI_JOBS", "2")
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            subprocess.check_call(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                                   f"-DKELI_PYTHON_EXECUTABLE={sys.executable}", "-DKELI_REQUIRE_PYTHON=ON"])
        subprocess.check_call(["cmake", "--build", build, "--target", "keli_python", "-j", jobs])
        built = [f for f in os.listdir(os.path.join(build, "python")) if f.startswith("keli") and f.endswith(".so")]
        if len(built) != 1:
            raise RuntimeError(f"expected one module keli*.so in {build}/python, found {built}")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(build, "python", built[0]), target)


# setuptools' own build folder is kept apart from CMake's build/ (its default name).
setup(ext_modules=[CMakeExtension("keli")], cmdclass={"build_ext": CMakeBuild},
      options={"build": {"build_base": os.path.join("build-pip", "setuptools")},
               "egg_info": {"egg_base": "build-pip"}})
