// A variadic macro from a system header (as gtest's EXPECT_* are).
#define CALL(f, ...) f(__VA_ARGS__)
