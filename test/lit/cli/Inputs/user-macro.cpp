// A user macro that happens to be named like a sonde type: the source
// compiles, the instrumented text (`::sonde::SiteKind::Region`) does not.
#define Region Shape
struct Shape { int w; };
int area(Shape s) { return s.w; }
