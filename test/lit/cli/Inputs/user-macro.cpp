// A user macro that happens to be named like a sonde type: the source
// compiles, the instrumented text (`static ::sonde::SiteTable ...`) does not.
#define SiteTable Shape
struct Shape { int w; };
int area(Shape s) { return s.w; }
