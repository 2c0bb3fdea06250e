// Included after code by split-preamble.cpp: a quoted include in the part
// of the main file the split compile moves into a FileID of its own, which
// must still be found next to the main file.
inline int late() { return 7; }
