// One game file taken through the front of the pipeline: loaded with its imports, parsed,
// checked; then compiled for any parameter settings. The tools and tests start here.
#pragma once

#include <memory>
#include <string>

#include "check/checker.hpp"
#include "compile/compiler.hpp"
#include "diag/diagnostics.hpp"

namespace keli {

class GameFile {
 public:
  // Never throws for bad input: problems are in diagnostics().
  static std::unique_ptr<GameFile> open(const std::string& path);

  bool ok() const { return !diags_.has_errors(); }
  const diag::Diagnostics& diagnostics() const { return diags_; }
  const SourceSet& sources() const { return src_; }
  const check::Checked& checked() const { return checked_; }
  const std::string& path() const { return path_; }

  // Compiles with the given settings; null with the reasons in `diags` when they are wrong.
  std::shared_ptr<const compile::Program> compile(const compile::ParamSettings& settings, diag::Diagnostics& diags,
                                                  bool optimized = true) const;

 private:
  std::string path_;
  SourceSet src_;
  diag::Diagnostics diags_;
  check::Checked checked_;
};

}  // namespace keli
