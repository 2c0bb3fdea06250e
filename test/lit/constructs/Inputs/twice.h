#ifndef TWICE_H
#define TWICE_H
inline int header_fn(int x) {
  int hv = x + 1;
  return hv;
}
#endif
