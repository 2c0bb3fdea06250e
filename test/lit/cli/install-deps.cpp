// scripts/install-deps waits for another apt-get that holds the dpkg lock
// instead of failing at once (issue 12 item 13), and installs
// clang-format-19 with the core packages. apt-get, dpkg-query and sudo are
// stand-ins that record the calls (Inputs/fake-apt).
//
// RUN: rm -f %t.log
// RUN: env PATH=%S/Inputs/fake-apt:/usr/bin:/bin FAKE_APT_LOG=%t.log bash %S/../../../scripts/install-deps
// RUN: FileCheck %s --input-file %t.log
// CHECK: apt-get -o DPkg::Lock::Timeout=600 update -q
// CHECK-NEXT: apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends {{.*}} clang-format-19 clang-tidy-19{{$}}
//
// RUN: rm -f %t.log
// RUN: env PATH=%S/Inputs/fake-apt:/usr/bin:/bin FAKE_APT_LOG=%t.log INSTALL_DEPS_LOCK_TIMEOUT=5 bash %S/../../../scripts/install-deps
// RUN: FileCheck %s --check-prefix=FIVE --input-file %t.log
// FIVE: apt-get -o DPkg::Lock::Timeout=5 update -q
