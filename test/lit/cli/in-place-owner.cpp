// --in-place never replaces a file the user could not write, and never
// changes a file's owner (issue 12 item 13): run as `nobody` in a
// world-writable directory, a rename would replace a root-owned read-only
// file and make it nobody's. Errors carry the system's reason.
//
// REQUIRES: root
// RUN: rm -rf %t && mkdir -p %t/w && cp %S/Inputs/a.cpp %S/Inputs/probes.yaml %t/w/
// RUN: chmod 755 %t && chmod 777 %t/w && chmod 644 %t/w/probes.yaml
//
// Root's read-only file: refused, untouched, still root's.
// RUN: chmod 444 %t/w/a.cpp
// RUN: cd %t/w && %not runuser -u nobody -- %sonde-rewrite --spec probes.yaml --in-place a.cpp -- -std=c++17 2> %t/ro.txt
// RUN: FileCheck %s --check-prefix=RO --input-file %t/ro.txt
// RO: sonde-rewrite: error: '{{.*}}/w/a.cpp' is not writable by this user; not replaced: Permission denied
// RUN: cmp %S/Inputs/a.cpp %t/w/a.cpp
// RUN: stat -c '%%U %%a' %t/w/a.cpp | FileCheck %s --check-prefix=ROOT
// ROOT: root 444
//
// Root's file that nobody may write: the replacement could not stay root's,
// so it is refused too (writing in place would not be atomic).
// RUN: chmod 666 %t/w/a.cpp
// RUN: cd %t/w && %not runuser -u nobody -- %sonde-rewrite --spec probes.yaml --in-place a.cpp -- -std=c++17 2> %t/owner.txt
// RUN: FileCheck %s --check-prefix=OWNER --input-file %t/owner.txt
// OWNER: sonde-rewrite: error: '{{.*}}/w/a.cpp' belongs to uid 0 gid 0, which its replacement could not keep; not replaced: Operation not permitted
// RUN: cmp %S/Inputs/a.cpp %t/w/a.cpp
// RUN: stat -c '%%U %%a' %t/w/a.cpp | FileCheck %s --check-prefix=ROOT2
// ROOT2: root 666
// RUN: ls %t/w | FileCheck %s --check-prefix=LS
// LS-NOT: sonde-tmp
//
// nobody's own file in a directory nobody cannot write: the errno is said.
// RUN: mkdir -p %t/ro && cp %S/Inputs/a.cpp %t/ro/ && chown -R nobody:nogroup %t/ro && chmod 555 %t/ro
// RUN: cd %t/ro && %not runuser -u nobody -- %sonde-rewrite --spec %t/w/probes.yaml --in-place a.cpp -- -std=c++17 2> %t/dir.txt
// RUN: FileCheck %s --check-prefix=DIR --input-file %t/dir.txt
// DIR: sonde-rewrite: error: cannot create a temporary next to '{{.*}}a.cpp': Permission denied
// RUN: chmod 755 %t/ro
//
// And a file the user owns is replaced, still theirs.
// RUN: chmod 644 %t/w/a.cpp && chown nobody:nogroup %t/w/a.cpp
// RUN: cd %t/w && runuser -u nobody -- %sonde-rewrite --spec probes.yaml --in-place a.cpp -- -std=c++17
// RUN: stat -c '%%U %%a' %t/w/a.cpp | FileCheck %s --check-prefix=MINE
// MINE: nobody 644
// RUN: FileCheck %s --check-prefix=DONE --input-file %t/w/a.cpp
// DONE: int step(int x) { static ::sonde::Site
