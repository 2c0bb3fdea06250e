// Inserted scalar watches compiled by g++ with optimization reach libsonde
// through an asm that calls sonde_watch_trampoline and tells the compiler
// that nothing changes (sonde/detail/WatchTrampoline.h). This holds the
// trampoline to that:
//
//  - its records are the ones the call of clang's build writes, for every
//    scalar type, an off site, a `check: finite` alarm, a thread's first
//    record and a table's first use (the slow half);
//  - every general register, the vector registers whole (the upper halves
//    of the ymm registers included, which the C library's AVX copies on the
//    slow half would zero), MXCSR, the x87 control word and the 128 bytes
//    below the stack pointer are as they were, on the fast half and on
//    the slow one, called exactly as the inserted asm calls it;
//  - its fast half holds no vector or x87 instruction (it does not save
//    them).
//
// REQUIRES: x86_64
// RUN: %build-gcc -O2 %s -o %t.gcc %sonde-link -pthread
// RUN: %build-clang -O2 %s -o %t.clang %sonde-link -pthread
// RUN: objdump -dC --no-show-raw-insn --disassemble=sondeTestWatchEach %t.gcc | FileCheck %s --check-prefix=GCC-ASM
// RUN: objdump -dC --no-show-raw-insn --disassemble=sondeTestWatchEach %t.clang | FileCheck %s --check-prefix=CLANG-ASM
// RUN: rm -rf %t.g %t.c
// RUN: env SONDE_OUTPUT=%t.g %t.gcc | FileCheck %s --check-prefix=OUT
// RUN: env SONDE_OUTPUT=%t.c %t.clang | FileCheck %s --check-prefix=OUT
// RUN: %sonde-trace export %t.g --format jsonl | %records > %t.g.records
// RUN: %sonde-trace export %t.c --format jsonl | %records > %t.c.records
// RUN: diff %t.g.records %t.c.records
// RUN: FileCheck %s --input-file %t.g.records
// RUN: objdump -d --no-show-raw-insn --disassemble=sonde_watch_fast %sonde-so > %t.fast
// RUN: objdump -d --no-show-raw-insn --disassemble=sonde_vector_area %sonde-so >> %t.fast
// RUN: FileCheck %s --input-file %t.fast --check-prefix=FAST
// RUN: FileCheck %s --input-file %t.fast --check-prefix=FAST-NONE --implicit-check-not=xmm --implicit-check-not=ymm --implicit-check-not=zmm --implicit-check-not=%%st --implicit-check-not=%%mm

// The g++ build's watches are the asm of Inserted.h's watchByTrampoline,
// which callAsInserted() repeats: step over the red zone (the volatile
// short is kept there: the function is a leaf for g++), push three words,
// call through the GOT, pop them; the clang build's are calls.
// GCC-ASM: <sondeTestWatchEach>:
// GCC-ASM: lea -0x80(%rsp),%rsp
// GCC-ASM-NEXT: push
// GCC-ASM-NEXT: push $0x3
// GCC-ASM-NEXT: push
// GCC-ASM-NEXT: call *{{.*}}(%rip) {{.*}}<sonde_watch_trampoline
// GCC-ASM-NEXT: lea 0x98(%rsp),%rsp
// CLANG-ASM: <sondeTestWatchEach>:
// CLANG-ASM-NOT: sonde_watch_trampoline
// CLANG-ASM: watchSharedAt
// FAST: <sonde_watch_fast>:
// FAST: ret
// FAST: <sonde_vector_area>:
// FAST-NONE: <sonde_watch_fast>:

#include "sonde/sonde.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <thread>

namespace {

std::string tableText(const char *Function, bool Finite) {
  std::string T;
  auto Field = [&T](const std::string &F) { T += F + sonde::TableSeparator; };
  auto Site = [&Field](unsigned Flags, int Line, const char *Name) {
    Field(std::to_string(unsigned(sonde::SiteKind::Watch)));
    Field(std::to_string(Flags));
    Field(std::to_string(Line));
    Field("0");
    Field("user");
    Field(Name);
    Field("");
    Field("");
  };
  Field(std::to_string(sonde::SiteTableVersion));
  Field("6");
  Field("watch-trampoline.cpp");
  Field(Function);
  Site(0, 1, "i64");
  Site(0, 2, "u64");
  Site(Finite ? sonde::CheckFinite : 0, 3, "f64");
  Site(0, 4, "f32");
  Site(0, 5, "flag");
  Site(sonde::OffByDefault, 6, "off");
  return T;
}

const std::string ValuesText = tableText("values", true);
const std::string FreshText = tableText("fresh", false);
const std::string ThreadText = tableText("thread", false);
sonde::SiteTable Values(ValuesText.c_str());
sonde::SiteTable Fresh(FreshText.c_str());
sonde::SiteTable OnThread(ThreadText.c_str());

} // namespace

/// Every scalar type a watch writes, as inserted code watches them.
extern "C" __attribute__((noinline)) void sondeTestWatchEach(int Step) {
  int64_t I = -3 * Step;
  unsigned long long U = 1000ull + Step;
  double D = Step == 2 ? std::numeric_limits<double>::quiet_NaN() : 0.5 * Step;
  float F = 0.25f * Step;
  bool B = Step % 2;
  volatile short V = static_cast<short>(Step);
  sonde::watchAt(Values, 0, I);
  sonde::watchAt(Values, 1, U);
  sonde::watchAt(Values, 2, D);
  sonde::watchAt(Values, 3, F);
  sonde::watchAt(Values, 4, B);
  sonde::watchAt(Values, 5, Step); // off: no record
  sonde::watchAt(Values, 0, V);
}

/// What the asm below loads before the call and finds after it.
struct alignas(64) Machine {
  uint64_t G[15]; // rax rbx rcx rdx rsi rdi rbp r8 .. r15
  uint8_t Y[16][32];
  uint32_t Mxcsr;
  uint16_t Fcw;
  uint8_t Red[128];
};

extern "C" {
Machine SondeTestIn, SondeTestOut;
uint64_t SondeTestTable, SondeTestPacked, SondeTestBits;
uint32_t SondeTestSaved[2];
int SondeTestAvx;
}

namespace {

/// Calls the trampoline as the inserted asm does (the same five
/// instructions) with every register holding a pattern, then stores them.
__attribute__((noinline)) void callAsInserted() {
#define G(N) "SondeTestIn+" #N "*8(%%rip)"
#define O(N) "SondeTestOut+" #N "*8(%%rip)"
  // The Machine's fields by their offsets: %c[y], %c[mxcsr], %c[fcw],
  // %c[red]; the caller's MXCSR and x87 control word are put back after.
  asm volatile(
      "lea -128(%%rsp), %%rsp\n\t"
      "push %%rbp\n\t"
      "push %%rbx\n\t"
      "push %%r12\n\t"
      "push %%r13\n\t"
      "push %%r14\n\t"
      "push %%r15\n\t"
      // The 128 bytes below the stack pointer.
      "xor %%ecx, %%ecx\n\t"
      "1:\n\t"
      "lea SondeTestIn+%c[red](%%rip), %%rax\n\t"
      "mov (%%rax,%%rcx), %%rdx\n\t"
      "mov %%rdx, -128(%%rsp,%%rcx)\n\t"
      "add $8, %%ecx\n\t"
      "cmp $128, %%ecx\n\t"
      "jb 1b\n\t"
      // Vector registers: whole ymm where there is AVX.
      "lea SondeTestIn+%c[y](%%rip), %%rax\n\t"
      "cmpl $0, SondeTestAvx(%%rip)\n\t"
      "je 2f\n\t"
      "vmovdqu 0(%%rax), %%ymm0\n\t vmovdqu 32(%%rax), %%ymm1\n\t"
      "vmovdqu 64(%%rax), %%ymm2\n\t vmovdqu 96(%%rax), %%ymm3\n\t"
      "vmovdqu 128(%%rax), %%ymm4\n\t vmovdqu 160(%%rax), %%ymm5\n\t"
      "vmovdqu 192(%%rax), %%ymm6\n\t vmovdqu 224(%%rax), %%ymm7\n\t"
      "vmovdqu 256(%%rax), %%ymm8\n\t vmovdqu 288(%%rax), %%ymm9\n\t"
      "vmovdqu 320(%%rax), %%ymm10\n\t vmovdqu 352(%%rax), %%ymm11\n\t"
      "vmovdqu 384(%%rax), %%ymm12\n\t vmovdqu 416(%%rax), %%ymm13\n\t"
      "vmovdqu 448(%%rax), %%ymm14\n\t vmovdqu 480(%%rax), %%ymm15\n\t"
      "jmp 3f\n\t"
      "2:\n\t"
      "movdqu 0(%%rax), %%xmm0\n\t movdqu 32(%%rax), %%xmm1\n\t"
      "movdqu 64(%%rax), %%xmm2\n\t movdqu 96(%%rax), %%xmm3\n\t"
      "movdqu 128(%%rax), %%xmm4\n\t movdqu 160(%%rax), %%xmm5\n\t"
      "movdqu 192(%%rax), %%xmm6\n\t movdqu 224(%%rax), %%xmm7\n\t"
      "movdqu 256(%%rax), %%xmm8\n\t movdqu 288(%%rax), %%xmm9\n\t"
      "movdqu 320(%%rax), %%xmm10\n\t movdqu 352(%%rax), %%xmm11\n\t"
      "movdqu 384(%%rax), %%xmm12\n\t movdqu 416(%%rax), %%xmm13\n\t"
      "movdqu 448(%%rax), %%xmm14\n\t movdqu 480(%%rax), %%xmm15\n\t"
      "3:\n\t"
      "stmxcsr SondeTestSaved(%%rip)\n\t"
      "fnstcw SondeTestSaved+4(%%rip)\n\t"
      "ldmxcsr SondeTestIn+%c[mxcsr](%%rip)\n\t"
      "fldcw SondeTestIn+%c[fcw](%%rip)\n\t"
      "mov " G(
          0) ", %%rax\n\t"
             "mov " G(
                 1) ", %%rbx\n\t"
                    "mov " G(
                        2) ", %%rcx\n\t"
                           "mov " G(
                               3) ", %%rdx\n\t"
                                  "mov " G(
                                      4) ", %%rsi\n\t"
                                         "mov " G(
                                             5) ", %%rdi\n\t"
                                                "mov " G(
                                                    6) ", %%rbp\n\t"
                                                       "mov " G(
                                                           7) ", %%r8\n\t"
                                                              "mov " G(
                                                                  8) ", "
                                                                     "%%r9\n\t"
                                                                     "mov " G(
                                                                         9) ", "
                                                                            "%%"
                                                                            "r1"
                                                                            "0"
                                                                            "\n"
                                                                            "\t"
                                                                            "mo"
                                                                            "v"
                                                                            " " G(10) ", %%r11\n\t"
                                                                                      "mov " G(
                                                                                          11) ", %%r12\n\t"
                                                                                              "mov " G(
                                                                                                  12) ", %%r13\n\t"
                                                                                                      "mov " G(
                                                                                                          13) ", %%r14\n\t"
                                                                                                              "mov " G(
                                                                                                                  14) ", %%r15\n\t"
                                                                                                                      // As inserted: Inserted.h, watchByTrampoline.
                                                                                                                      "lea -128(%%rsp), %%rsp\n\t"
                                                                                                                      "pushq SondeTestTable(%%rip)\n\t"
                                                                                                                      "pushq SondeTestPacked(%%rip)\n\t"
                                                                                                                      "pushq SondeTestBits(%%rip)\n\t"
                                                                                                                      "call *sonde_watch_trampoline@GOTPCREL(%%rip)\n\t"
                                                                                                                      "lea 152(%%rsp), %%rsp\n\t"
                                                                                                                      "mov %%rax, " O(0) "\n\t"
                                                                                                                                         "mov %%rbx, " O(1) "\n\t"
                                                                                                                                                            "mov %%rcx, " O(2) "\n\t"
                                                                                                                                                                               "mov %%rdx, " O(3) "\n\t"
                                                                                                                                                                                                  "mov %%rsi, " O(4) "\n\t"
                                                                                                                                                                                                                     "mov %%rdi, " O(5) "\n\t"
                                                                                                                                                                                                                                        "mov %%rbp, " O(6) "\n\t"
                                                                                                                                                                                                                                                           "mov %%r8, " O(
                                                                                                                                                                                                                                                               7) "\n\t"
                                                                                                                                                                                                                                                                  "mov %%r9, " O(8) "\n\t"
                                                                                                                                                                                                                                                                                    "mov %%r10, " O(9) "\n\t"
                                                                                                                                                                                                                                                                                                       "mov %%r11, " O(10) "\n\t"
                                                                                                                                                                                                                                                                                                                           "mov %%r12, " O(11) "\n\t"
                                                                                                                                                                                                                                                                                                                                               "mov %%r13, " O(12) "\n\t"
                                                                                                                                                                                                                                                                                                                                                                   "mov %%r14, " O(13) "\n\t"
                                                                                                                                                                                                                                                                                                                                                                                       "mov %%r15, " O(14) "\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "stmxcsr SondeTestOut+%c[mxcsr](%%rip)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "fnstcw SondeTestOut+%c[fcw](%%rip)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "ldmxcsr SondeTestSaved(%%rip)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "fldcw SondeTestSaved+4(%%rip)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "lea SondeTestOut+%c[y](%%rip), %%rax\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "cmpl $0, SondeTestAvx(%%rip)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "je 4f\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "vmovdqu %%ymm0, 0(%%rax)\n\t vmovdqu %%ymm1, 32(%%rax)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "vmovdqu %%ymm2, 64(%%rax)\n\t vmovdqu %%ymm3, 96(%%rax)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "vmovdqu %%ymm4, 128(%%rax)\n\t vmovdqu %%ymm5, 160(%%rax)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "vmovdqu %%ymm6, 192(%%rax)\n\t vmovdqu %%ymm7, 224(%%rax)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "vmovdqu %%ymm8, 256(%%rax)\n\t vmovdqu %%ymm9, 288(%%rax)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "vmovdqu %%ymm10, 320(%%rax)\n\t vmovdqu %%ymm11, 352(%%rax)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "vmovdqu %%ymm12, 384(%%rax)\n\t vmovdqu %%ymm13, 416(%%rax)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "vmovdqu %%ymm14, 448(%%rax)\n\t vmovdqu %%ymm15, 480(%%rax)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "vzeroupper\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "jmp 5f\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "4:\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "movdqu %%xmm0, 0(%%rax)\n\t movdqu %%xmm1, 32(%%rax)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "movdqu %%xmm2, 64(%%rax)\n\t movdqu %%xmm3, 96(%%rax)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "movdqu %%xmm4, 128(%%rax)\n\t movdqu %%xmm5, 160(%%rax)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "movdqu %%xmm6, 192(%%rax)\n\t movdqu %%xmm7, 224(%%rax)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "movdqu %%xmm8, 256(%%rax)\n\t movdqu %%xmm9, 288(%%rax)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "movdqu %%xmm10, 320(%%rax)\n\t movdqu %%xmm11, 352(%%rax)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "movdqu %%xmm12, 384(%%rax)\n\t movdqu %%xmm13, 416(%%rax)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "movdqu %%xmm14, 448(%%rax)\n\t movdqu %%xmm15, 480(%%rax)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "5:\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "xor %%ecx, %%ecx\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "6:\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "lea SondeTestOut+%c[red](%%rip), %%rax\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "mov -128(%%rsp,%%rcx), %%rdx\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "mov %%rdx, (%%rax,%%rcx)\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "add $8, %%ecx\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "cmp $128, %%ecx\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "jb 6b\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "pop %%r15\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "pop %%r14\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "pop %%r13\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "pop %%r12\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "pop %%rbx\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "pop %%rbp\n\t"
                                                                                                                                                                                                                                                                                                                                                                                                           "lea 128(%%rsp), %%rsp\n\t"
      :
      : [y] "i"(offsetof(Machine, Y)), [mxcsr] "i"(offsetof(Machine, Mxcsr)),
        [fcw] "i"(offsetof(Machine, Fcw)), [red] "i"(offsetof(Machine, Red))
      : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "xmm0",
        "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
        "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "memory", "cc");
#undef G
#undef O
}

/// Runs callAsInserted() for site `I` of `T` with `Bits` as a Float watch
/// (packed as the inserted asm packs it), and says what changed.
void keeps(const char *What, const sonde::SiteTable &T, uint32_t I,
           double Value) {
  Machine &In = SondeTestIn;
  std::memset(&In, 0, sizeof In);
  for (int R = 0; R < 15; ++R)
    In.G[R] = 0x0101010101010101ull * static_cast<uint64_t>(R + 1) ^
              0x8040201008040201ull;
  for (int R = 0; R < 16; ++R)
    for (int B = 0; B < 32; ++B)
      In.Y[R][B] = static_cast<uint8_t>(R * 32 + B + 1);
  In.Mxcsr = 0x1f80 | 0x6000 | 0x8000; // round to zero, flush to zero
  In.Fcw = 0x0f7f;                     // round to zero, 64-bit
  for (int B = 0; B < 128; ++B)
    In.Red[B] = static_cast<uint8_t>(0xa5 ^ B);
  SondeTestAvx = __builtin_cpu_supports("avx");
  SondeTestTable = reinterpret_cast<uint64_t>(&T);
  SondeTestPacked = uint64_t(I) << SONDE_TRAMPOLINE_TAG_BITS |
                    static_cast<uint8_t>(sonde::rt::ValueTag::Float);
  std::memcpy(&SondeTestBits, &Value, 8);
  std::memset(&SondeTestOut, 0, sizeof SondeTestOut);
  callAsInserted();
  const Machine &Out = SondeTestOut;
  std::string Changed;
  static const char *Names[15] = {"rax", "rbx", "rcx", "rdx", "rsi",
                                  "rdi", "rbp", "r8",  "r9",  "r10",
                                  "r11", "r12", "r13", "r14", "r15"};
  for (int R = 0; R < 15; ++R)
    if (Out.G[R] != In.G[R])
      Changed += std::string(" ") + Names[R];
  size_t Width = SondeTestAvx ? 32 : 16;
  for (int R = 0; R < 16; ++R)
    if (std::memcmp(Out.Y[R], In.Y[R], Width) != 0)
      Changed += " vector" + std::to_string(R);
  if (Out.Mxcsr != In.Mxcsr)
    Changed += " mxcsr";
  if (Out.Fcw != In.Fcw)
    Changed += " fcw";
  if (std::memcmp(Out.Red, In.Red, sizeof In.Red) != 0)
    Changed += " red-zone";
  std::printf("%s: %s\n", What,
              Changed.empty() ? "every register kept" : Changed.c_str());
}

} // namespace

int main() {
  for (int Step = 0; Step < 4; ++Step)
    sondeTestWatchEach(Step);
  std::thread([] {
    double D = 7.5;
    sonde::watchAt(OnThread, 2, D); // the thread's first record
  }).join();
  // OUT: a table's first use: every register kept
  keeps("a table's first use", Fresh, 2, 1.5);
  // OUT: a site's next record: every register kept
  keeps("a site's next record", Fresh, 2, 2.5);
  // OUT: an off site: every register kept
  keeps("an off site", Fresh, 5, 3.5);
  // OUT: a check: finite alarm: every register kept
  keeps("a check: finite alarm", Values, 2,
        std::numeric_limits<double>::infinity());
  // OUT: a thread's first record: every register kept
  std::thread([] {
    keeps("a thread's first record", OnThread, 2, 4.5);
  }).join();
  return 0;
}

// CHECK: watch user/i64 value=0 line=1 func=values
// CHECK-NEXT: watch user/u64 value=1000 line=2 func=values
// CHECK-NEXT: watch user/f64 value=0 line=3 func=values
// CHECK-NEXT: watch user/f32 value=0 line=4 func=values
// CHECK-NEXT: watch user/flag value=false line=5 func=values
// CHECK-NEXT: watch user/i64 value=0 line=1 func=values
// CHECK-NEXT: watch user/i64 value=-3 line=1 func=values
// CHECK-NEXT: watch user/u64 value=1001 line=2 func=values
// CHECK-NEXT: watch user/f64 value=0.5 line=3 func=values
// CHECK-NEXT: watch user/f32 value=0.25 line=4 func=values
// CHECK-NEXT: watch user/flag value=true line=5 func=values
// CHECK-NEXT: watch user/i64 value=1 line=1 func=values
// CHECK-NEXT: watch user/i64 value=-6 line=1 func=values
// CHECK-NEXT: watch user/u64 value=1002 line=2 func=values
// CHECK-NEXT: watch user/f64 value="NaN" line=3 func=values
// CHECK-NEXT: alarm user/f64 value="NaN" line=3 func=values
// CHECK-NEXT: watch user/f32 value=0.5 line=4 func=values
// CHECK-NEXT: watch user/flag value=false line=5 func=values
// CHECK-NEXT: watch user/i64 value=2 line=1 func=values
// CHECK-NEXT: watch user/i64 value=-9 line=1 func=values
// CHECK-NEXT: watch user/u64 value=1003 line=2 func=values
// CHECK-NEXT: watch user/f64 value=1.5 line=3 func=values
// CHECK-NEXT: watch user/f32 value=0.75 line=4 func=values
// CHECK-NEXT: watch user/flag value=true line=5 func=values
// CHECK-NEXT: watch user/i64 value=3 line=1 func=values
// CHECK-NEXT: watch user/f64 value=7.5 line=3 func=thread
// CHECK-NEXT: watch user/f64 value=1.5 line=3 func=fresh
// CHECK-NEXT: watch user/f64 value=2.5 line=3 func=fresh
// CHECK-NEXT: watch user/f64 value="Infinity" line=3 func=values
// CHECK-NEXT: alarm user/f64 value="Infinity" line=3 func=values
// CHECK-NEXT: watch user/f64 value=4.5 line=3 func=thread
