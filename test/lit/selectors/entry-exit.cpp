// #enter, #exit (every exit, exceptions included) and #error (an exception
// leaving the function) are instants; #exit and #error are RAII hooks, so
// every exit path runs them.
//
// RUN: %instrument
// RUN: FileCheck %s --input-file %t.cpp
// RUN: %sonde-rewrite --spec %t.yaml --list-sites %s -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=SITES
//
// SPEC: version: 1
// SPEC: probes:
// SPEC:   - at: "load > #enter"
// SPEC:     category: checkpoint.restart
// SPEC:   - at: "load > #exit"
// SPEC:     category: checkpoint.restart
// SPEC:   - at: "load(path) > #error as failed"
// SPEC:     category: checkpoint.restart

int load(int path) {
  // CHECK: {{^}}int load(int path) { static ::sonde::SiteTable sonde_sites_[[T:[0-9a-f]+]]("{{[0-9]+}}\n3\n{{.*}}\nload\n2\n0\n{{[0-9]+}}\n{{[0-9a-f]+}}\ncheckpoint.restart\nrestart\n\n\n2\n0\n{{[0-9]+}}\n{{[0-9a-f]*}}[[EX:[0-9a-f]{8}]]\ncheckpoint.restart\nrestart\n\n\n2\n4\n{{[0-9]+}}\n{{[0-9a-f]*}}[[ER:[0-9a-f]{8}]]\ncheckpoint.restart\nfailed\npath\n\n"); ::sonde::instant(sonde_sites_[[T]][0]); ::sonde::OnExit sonde_exit_[[EX]]([&] { ::sonde::instant(sonde_sites_[[T]][1]); }); ::sonde::OnUnwind sonde_error_[[ER]]([&] { ::sonde::instantArgs(sonde_sites_[[T]][2], path); });
  if (path < 0)
    throw path;
  return path * 2;
}

// SITES: instant checkpoint.restart restart {{.*}}entry-exit.cpp:19 load #enter
// SITES-NEXT: instant checkpoint.restart restart {{.*}}:19 load #exit
// SITES-NEXT: instant checkpoint.restart failed {{.*}}:19 load #error args=path
