// The plugin's arguments and what a misuse says.
//
// RUN: rm -rf %t && mkdir -p %t && %spec
//
// No spec, an unknown argument, a spec with errors: the compile fails.
// RUN: %not %cxx -std=c++17 %sonde-plugin -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=NOSPEC
// NOSPEC: error: the sonde plugin needs a probe spec: -fplugin-arg-sonde-spec=probes.yaml
// RUN: %not %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-verbose -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: unknown sonde plugin argument '-fplugin-arg-sonde-verbose'
// A flag given a value is not that flag; the message lists every argument.
// RUN: %not %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-no-prewarm=1 -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=FLAGVALUE
// FLAGVALUE: error: unknown sonde plugin argument '-fplugin-arg-sonde-no-prewarm=1' (known: spec=FILE, strict, list-sites=FILE, runtime-include=DIR, spec-sha256=HEX, match-dir=DIR, nested-parse, no-prewarm)
// RUN: printf 'version: 1\nprobes:\n  - at: "f"\n    category: compute.foward\n' > %t/bad.yaml
// RUN: %not %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t/bad.yaml -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=BADSPEC
// BADSPEC: bad.yaml:4:15: error: {{.*}}compute.foward
// BADSPEC: error: sonde: invalid probe spec '{{.*}}bad.yaml'
// RUN: %not %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-spec-sha256=00ff -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=HASH
// HASH: error: sonde: probe spec '{{.*}}' changed since the build was configured; re-run cmake
//
// A skipped site is a warning, an error with strict.
// RUN: %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %not %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-strict -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=STRICT
//
// list-sites: a file (text, or JSON for .json), or a directory with one
// file per translation unit.
// RUN: %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-list-sites=%t/sites.json -fsyntax-only %s
// RUN: FileCheck %s --check-prefix=JSON --input-file %t/sites.json
// RUN: %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%t.yaml -fplugin-arg-sonde-list-sites=%t/sites/ -fsyntax-only %s
// RUN: cat %t/sites/arguments.cpp.*.sites | FileCheck %s --check-prefix=DIR
constexpr int twice(int x) { return 2 * x; }
// WARN: arguments.cpp:[[@LINE-1]]:15: warning: probe 'twice' skipped: 'twice': function is constexpr [sonde-constexpr]
// STRICT: arguments.cpp:[[@LINE-2]]:15: error: probe 'twice' skipped: 'twice': function is constexpr [sonde-constexpr]
int f() { return twice(2); }
// DIR: region user f {{.*}}arguments.cpp:[[@LINE-1]] f

// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "twice"
// SPEC:   - at: "f"

// JSON: "function": "f"
