// The source is read once, into memory, and parsed from that copy (issue
// 12 item 13): appending to a 50,000-line file during an --in-place run
// crashed clang's lexer, which read a memory-mapped file past the end that
// the append had moved. Here the file is appended to right after it is
// read (SONDE_REWRITE_TEST_AFTER_READ, a seam of the test-only build): no
// crash, the plan is of the text read, and the changed file is not
// replaced.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import sys; sys.stdout.write('int step(int x) { return x + 1; }\n' + ''.join('int v%%d = %%d;\n' %% (i, i) for i in range(50000)))" > %t/big.cpp
// RUN: cp %t/big.cpp %t/orig.cpp
// RUN: %python -c "import sys; sys.stdout.write('int appended = 1;\n' * 5000)" > %t/extra.txt
// RUN: cd %t && env "SONDE_REWRITE_TEST_AFTER_READ=cat extra.txt >> big.cpp" %not %sonde-rewrite-test-hooks --spec %S/Inputs/probes.yaml --in-place big.cpp -- -std=c++17 2> %t/err.txt
// RUN: FileCheck %s --input-file %t/err.txt
// CHECK: sonde-rewrite: error: 'big.cpp' changed since it was read; not replaced
// RUN: tail -n 1 %t/big.cpp | FileCheck %s --check-prefix=TAIL
// TAIL: int appended = 1;
// RUN: head -n 50001 %t/big.cpp | cmp - %t/orig.cpp
