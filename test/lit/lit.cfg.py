# lit configuration of the engine's tests.
#
# Each test carries its spec in `// SPEC:` lines (extracted by %spec), runs
# sonde-rewrite, and checks the rewritten text and the plan with FileCheck.
# Checks anchor on `{{^}}` so that a CHECK comment never matches itself in
# the rewritten copy of the test file.
import os
import platform
import shutil

import lit.formats

config.name = "sonde-engine"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp"]
config.excludes = ["Inputs"]
here = os.path.dirname(os.path.abspath(__file__))
config.test_source_root = here
# lit.site.cfg.py (in the build tree) sets test_exec_root.
cxxflags = "-std=c++17 -include sonde/sonde.h -I%s" % config.sonde_include
link = "-L%s -lsonde -Wl,-rpath,%s" % (config.sonde_lib_dir,
                                        config.sonde_lib_dir)

config.substitutions.append(("%spec", "sed -n 's|^// SPEC: \\{0,1\\}||p' %s > %t.yaml"))
# Longest first: lit substitutes in order.
config.substitutions.append(("%sonde-rewrite-test-hooks",
                             config.sonde_rewrite_test_hooks))
config.substitutions.append(("%sonde-rewrite", config.sonde_rewrite))
config.substitutions.append(("%sonde-trace", config.sonde_tool))
config.substitutions.append(("%sonde-include", config.sonde_include))
config.substitutions.append(
    ("%check-insertions",
     "%s %s" % (config.python, os.path.join(here, "check-insertions.py"))))
config.substitutions.append(
    ("%records", "%s %s" % (config.python, os.path.join(here, "records.py"))))
config.substitutions.append(
    ("%syntax-clang", "%s %s -fsyntax-only -Wall -Wno-unused-variable" %
     (config.clangxx, cxxflags)))
config.substitutions.append(
    ("%syntax-gcc", "%s %s -fsyntax-only" % (config.gxx, cxxflags)))
config.substitutions.append(
    ("%build-clang", "%s %s -O1 -g0" % (config.clangxx, cxxflags)))
config.substitutions.append(
    ("%build-gcc", "%s %s -O1 -g0" % (config.gxx, cxxflags)))
config.substitutions.append(("%sonde-link", link))
config.substitutions.append(
    ("%sonde-so", os.path.join(config.sonde_lib_dir, "libsonde.so")))
config.substitutions.append(("%cxx", config.clangxx))
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%not", os.path.join(config.llvm_bin, "not")))
# Run as root with runuser: tests may act as another user (`nobody`).
if os.geteuid() == 0 and shutil.which("runuser"):
    config.available_features.add("root")
# The watch trampoline (sonde/detail/WatchTrampoline.h) is x86-64's.
if platform.machine() in ("x86_64", "AMD64", "amd64"):
    config.available_features.add("x86_64")
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_bin, config.environment.get("PATH", os.environ["PATH"])])

# Rewrite the test file with its own spec into %t.cpp, check that the result
# is insertions only, and that clang++ and g++ both accept it.
config.substitutions.insert(0, (
    "%instrument",
    "%spec && %sonde-rewrite --spec %t.yaml %s -- -std=c++17 > %t.cpp 2> %t.err && "
    "%check-insertions %s %t.cpp && %syntax-clang %t.cpp && "
    "%syntax-gcc %t.cpp"))

# The same in C++20 (concepts, <=>, [[likely]], consteval, template lambdas).
config.substitutions.insert(0, (
    "%instrument20",
    "%spec && %sonde-rewrite --spec %t.yaml %s -- -std=c++20 > %t.cpp 2> %t.err && "
    "%check-insertions %s %t.cpp && %syntax-clang -std=c++20 %t.cpp && "
    "%syntax-gcc -std=c++20 %t.cpp"))

# The plugin front door (test/lit/plugin/ and exec cases run through both
# front doors): `%sonde-plugin` is the -fplugin flag, `%build-plugin` a
# compile like %build-clang that instruments in process. Feature
# `sonde-plugin` when the plugin is built.
plugin = getattr(config, "sonde_plugin", "")
if plugin and os.path.exists(plugin):
    config.available_features.add("sonde-plugin")
    config.substitutions.insert(0, ("%build-plugin",
        "%s %s -O1 -g0 -fplugin=%s" % (config.clangxx, cxxflags.replace(
            "-include sonde/sonde.h ", ""), plugin)))
    config.substitutions.insert(0, ("%sonde-plugin", "-fplugin=" + plugin))
    config.substitutions.append(("%plugin-path", plugin))

# libtorch (test/lit/CMakeLists.txt): `%torch-cflags` and `%torch-libs`,
# feature `torch`.
if getattr(config, "torch_libs", ""):
    config.available_features.add("torch")
    config.substitutions.append(("%torch-cflags", config.torch_cflags))
    config.substitutions.append(("%torch-libs", config.torch_libs))
