//===- tool/ExitCode.h - sonde-rewrite's exit status ------------*- C++ -*-===//
//
// 0 done; 1 errors in the spec or its selectors; 2 usage or source errors.
// Scripts and the CMake helpers tell a spec mistake from a broken source by
// it.
//
//===----------------------------------------------------------------------===//

#ifndef SONDE_REWRITER_TOOL_EXITCODE_H
#define SONDE_REWRITER_TOOL_EXITCODE_H

namespace sonde {
namespace rewrite {

enum ExitCode { ExitOk = 0, ExitSpec = 1, ExitSource = 2 };

} // namespace rewrite
} // namespace sonde

#endif
