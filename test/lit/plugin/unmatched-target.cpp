// The plugin writes each translation unit's match summary
// (-fplugin-arg-sonde-match-dir=DIR) and warns about no probe per file; the
// target's report (sonde-rewrite --report-unmatched) finds the probes that
// match nothing in all of them (issue 12 item 5).
//
// REQUIRES: sonde-plugin
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf '%S/../cli/Inputs/unmatched/model.cpp\n%S/../cli/Inputs/unmatched/train.cpp\n' > %t/sources.txt
// RUN: %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%S/../cli/Inputs/unmatched/probes.yaml -fplugin-arg-sonde-match-dir=%t/m -c %S/../cli/Inputs/unmatched/model.cpp -o %t/model.o 2> %t/cc1.txt
// RUN: %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%S/../cli/Inputs/unmatched/probes.yaml -fplugin-arg-sonde-match-dir=%t/m -c %S/../cli/Inputs/unmatched/train.cpp -o %t/train.o 2> %t/cc2.txt
// RUN: cat %t/cc1.txt %t/cc2.txt | count 0
// RUN: %sonde-rewrite --spec %S/../cli/Inputs/unmatched/probes.yaml --match-dir %t/m --report-unmatched "target trainer" %t/sources.txt -- 2> %t/report.txt
// RUN: FileCheck %s --input-file %t/report.txt
// CHECK: probes.yaml:3:10: warning: selector 'trian > #loop_epoch' matches nothing in target trainer; did you mean 'train > #loop_epoch'?
// CHECK: probes.yaml:5:10: warning: selector 'Net::forwrd' matches nothing in target trainer; did you mean 'NetImpl::forward'?
// CHECK: probes.yaml:12:10: warning: selector 'nowhere_close_to_anything' matches nothing in target trainer{{$}}
//
// A match directory that cannot be made (under a file) fails the compile,
// saying why.
// RUN: %not %cxx -std=c++17 %sonde-plugin -fplugin-arg-sonde-spec=%S/../cli/Inputs/unmatched/probes.yaml -fplugin-arg-sonde-match-dir=%t/sources.txt/m -c %S/../cli/Inputs/unmatched/model.cpp -o %t/model.o 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: error: sonde: cannot create '{{.*}}sources.txt/m': Not a directory
