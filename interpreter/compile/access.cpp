// The flat index tables the evaluators read tables through (Program::var_access, const_access):
// each table's base, dimensions and lowest indices, laid out once after code generation.
#include <cassert>

#include "compile/optimize.hpp"
#include "lang/limits.hpp"

namespace keli::compile {
namespace {

void build_access(const std::vector<VarInfo>& tables, std::vector<Access>& out) {
  out.clear();
  for (const VarInfo& t : tables) {
    Access a;
    a.base = t.base;
    a.ndims = static_cast<int32_t>(t.dims.size());
    assert(a.ndims <= lang::kMaxTableDims);  // the checker allows no more
    for (int d = 0; d < a.ndims && d < lang::kMaxTableDims; ++d) {
      a.low[d] = t.lows[d];
      a.dim[d] = t.dims[d];
    }
    out.push_back(a);
  }
}

}  // namespace

void build_access_tables(Program& p) {
  build_access(p.vars, p.var_access);
  build_access(p.const_tables, p.const_access);
}

}  // namespace keli::compile
