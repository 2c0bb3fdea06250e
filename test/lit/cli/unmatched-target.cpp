// A probe that matches nothing in a whole target is reported once, at the
// spec's line, with the nearest name that exists (issue 12 item 5): each
// file's rewrite writes a match summary (--match-dir) and says nothing of
// probes it alone does not match (--quiet-unmatched, as sonde_instrument
// runs it); --report-unmatched reads the summaries of the target's sources.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf '%S/Inputs/unmatched/model.cpp\n%S/Inputs/unmatched/train.cpp\n' > %t/sources.txt
// RUN: %sonde-rewrite --spec %S/Inputs/unmatched/probes.yaml --quiet-unmatched --match-dir %t/m %S/Inputs/unmatched/model.cpp -- -std=c++17 > /dev/null 2> %t/tu1.txt
// RUN: %sonde-rewrite --spec %S/Inputs/unmatched/probes.yaml --quiet-unmatched --match-dir %t/m %S/Inputs/unmatched/train.cpp -- -std=c++17 > /dev/null 2> %t/tu2.txt
// RUN: cat %t/tu1.txt %t/tu2.txt | count 0
//
// RUN: %sonde-rewrite --spec %S/Inputs/unmatched/probes.yaml --match-dir %t/m --report-unmatched "target trainer" %t/sources.txt -- 2> %t/report.txt
// RUN: FileCheck %s --input-file %t/report.txt
// CHECK: probes.yaml:3:10: warning: selector 'trian > #loop_epoch' matches nothing in target trainer; did you mean 'train > #loop_epoch'?
// CHECK: probes.yaml:5:10: warning: selector 'Net::forwrd' matches nothing in target trainer; did you mean 'NetImpl::forward'?
// CHECK: probes.yaml:12:10: warning: selector 'nowhere_close_to_anything' matches nothing in target trainer{{$}}
// RUN: grep -c "matches nothing" %t/report.txt | FileCheck %s --check-prefix=THREE
// THREE: 3
//
// --strict: errors, exit 1.
// RUN: %not %sonde-rewrite --strict --spec %S/Inputs/unmatched/probes.yaml --match-dir %t/m --report-unmatched "target trainer" %t/sources.txt -- 2>&1 | FileCheck %s --check-prefix=STRICT
// STRICT: probes.yaml:5:10: error: selector 'Net::forwrd' matches nothing in target trainer; did you mean 'NetImpl::forward'?
//
// A source without a summary (an object from a compiler cache): the report
// cannot be made, and says so instead of claiming probes match nothing.
// RUN: printf '%S/Inputs/unmatched/other.cpp\n' >> %t/sources.txt
// RUN: %sonde-rewrite --spec %S/Inputs/unmatched/probes.yaml --match-dir %t/m --report-unmatched "target trainer" %t/sources.txt -- 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: sonde-rewrite: warning: probes that match nothing in target trainer are not checked: no match summary of this spec for {{.*}}other.cpp
// MISSING-NOT: matches nothing in target
//
// One sonde-rewrite over both files says the same, without a build.
// RUN: %sonde-rewrite --spec %S/Inputs/unmatched/probes.yaml %S/Inputs/unmatched/model.cpp %S/Inputs/unmatched/train.cpp -- -std=c++17 2>&1 >/dev/null | FileCheck %s --check-prefix=BATCH
// BATCH: probes.yaml:5:10: warning: selector 'Net::forwrd' matches nothing; did you mean 'NetImpl::forward'?
//
// Never silent: a match directory that cannot be made (under a file), a list
// of sources that cannot be read, a summary that is not one, and a report
// without --match-dir each fail, saying why.
// RUN: %not %sonde-rewrite --spec %S/Inputs/unmatched/probes.yaml --quiet-unmatched --match-dir %t/sources.txt/m %S/Inputs/unmatched/model.cpp -- -std=c++17 2>&1 >/dev/null | FileCheck %s --check-prefix=NODIR
// NODIR: sonde-rewrite: error: cannot create '{{.*}}sources.txt/m': Not a directory
// RUN: %not %sonde-rewrite --spec %S/Inputs/unmatched/probes.yaml --match-dir %t/m --report-unmatched "target trainer" %t/nosuch.txt -- 2>&1 | FileCheck %s --check-prefix=NOLIST
// NOLIST: sonde-rewrite: error: cannot read '{{.*}}nosuch.txt': No such file or directory
// RUN: mkdir -p %t/bad && printf '%S/Inputs/unmatched/model.cpp\n' > %t/bad/sources.txt
// RUN: %sonde-rewrite --spec %S/Inputs/unmatched/probes.yaml --quiet-unmatched --match-dir %t/bad %S/Inputs/unmatched/model.cpp -- -std=c++17 > /dev/null
// RUN: sh -c 'for f in %t/bad/*.sonde-matches; do echo garbage > "$f"; done'
// RUN: %not %sonde-rewrite --spec %S/Inputs/unmatched/probes.yaml --match-dir %t/bad --report-unmatched "target trainer" %t/bad/sources.txt -- 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: sonde-rewrite: error: {{.*}}model.cpp.{{[0-9a-f]+}}.sonde-matches: not a sonde match summary
// RUN: %not %sonde-rewrite --spec %S/Inputs/unmatched/probes.yaml --report-unmatched "target trainer" %t/sources.txt -- 2>&1 | FileCheck %s --check-prefix=NOMATCHDIR
// NOMATCHDIR: sonde-rewrite: error: --report-unmatched WHAT needs --match-dir DIR and one file listing the sources
