//===- WatchTrampoline.S - What inserted scalar watches call --------------===//
//
// sonde/detail/WatchTrampoline.h says why; WatchTrampoline.h names the two
// halves this calls. The asm of an inserted watch stepped over its red
// zone, pushed the site table, the packed index and tag, and the value's 8
// bytes, and called here, telling its compiler that nothing changes: every
// register is as it was when this returns, and the asm then pops what it
// pushed. So this saves the nine caller-saved general registers before it
// calls the fast half (which touches no other register), and the whole
// vector and x87 state (XSAVE, or FXSAVE) before it calls the slow half.
//
// The frame's unwind information gives the caller's stack pointer as it
// was before its asm, so that a debugger or profiler stopped in here (or
// in either half) walks on into the caller correctly.
//
//===----------------------------------------------------------------------===//

#include "sonde/detail/WatchTrampoline.h"

#if defined(__x86_64__) && defined(__ELF__)

// Where the pushed words are, from %rbp once the frame is made.
#define BITS 16(%rbp)
#define PACKED 24(%rbp)
#define TABLE 32(%rbp)
// The caller-saved general registers, pushed below %rbp.
#define SAVED (9 * 8)

        .text
        .p2align 4
        .globl  sonde_watch_trampoline
        .type   sonde_watch_trampoline, @function
sonde_watch_trampoline:
        .cfi_startproc
        // Reached by an indirect call (through the GOT): a landing pad for
        // indirect branch tracking, a no-op elsewhere.
        endbr64
        .cfi_def_cfa_offset SONDE_TRAMPOLINE_CFA
        .cfi_offset 16, -SONDE_TRAMPOLINE_CFA // the return address
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        .cfi_offset %rbp, -(SONDE_TRAMPOLINE_CFA + 8)
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        pushq   %rax
        pushq   %rcx
        pushq   %rdx
        pushq   %rsi
        pushq   %rdi
        pushq   %r8
        pushq   %r9
        pushq   %r10
        pushq   %r11
        // The asm may have been anywhere in its function: align for the
        // calls (the ABI's 16 bytes).
        andq    $-16, %rsp
        movq    TABLE, %rdi
        movq    PACKED, %rsi
        movq    BITS, %rdx
        call    sonde_watch_fast
        testl   %eax, %eax
        jnz     .Lslow
.Lout:
        leaq    -SAVED(%rbp), %rsp
        popq    %r11
        popq    %r10
        popq    %r9
        popq    %r8
        popq    %rdi
        popq    %rsi
        popq    %rdx
        popq    %rcx
        popq    %rax
        .cfi_remember_state
        popq    %rbp
        .cfi_def_cfa %rsp, SONDE_TRAMPOLINE_CFA
        .cfi_restore %rbp
        ret
        .cfi_restore_state

.Lslow:
        // The slow half may call anything (the C library's AVX copies, the
        // allocator): the vector state is saved first, in an area below
        // this frame aligned as XSAVE wants (64 bytes).
        movl    %eax, %r8d              // the fast half's answer
        pushq   %r8
        pushq   %r8
        call    sonde_vector_area
        popq    %r8
        popq    %r8
        // Page by page down to the area's end, so that a large area (XSAVE
        // with AVX-512 or AMX state is 3 to 11 KiB) cannot step over a
        // thread's guard page into another mapping.
        movl    %eax, %ecx
        movq    %rsp, %rdx
        subq    %rcx, %rsp
        andq    $-64, %rsp
.Lprobe:
        subq    $4096, %rdx
        cmpq    %rsp, %rdx
        jb      .Lprobed
        orq     $0, (%rdx)
        jmp     .Lprobe
.Lprobed:
        orq     $0, (%rsp)
        cmpl    $512, %ecx
        je      .Lfxsave
        // XRSTOR wants the header's bytes after XSTATE_BV zero, and XSAVE
        // writes XSTATE_BV only.
        xorl    %eax, %eax
        movq    %rax, 512(%rsp)
        movq    %rax, 520(%rsp)
        movq    %rax, 528(%rsp)
        movq    %rax, 536(%rsp)
        movq    %rax, 544(%rsp)
        movq    %rax, 552(%rsp)
        movq    %rax, 560(%rsp)
        movq    %rax, 568(%rsp)
        movl    $-1, %eax
        movl    $-1, %edx
        xsave64 (%rsp)
        jmp     .Lsaved
.Lfxsave:
        fxsave64 (%rsp)
.Lsaved:
        movq    TABLE, %rdi
        movq    PACKED, %rsi
        movq    BITS, %rdx
        movl    %r8d, %ecx
        call    sonde_watch_slow
        // The area's kind asked again (cached: a few instructions) rather
        // than kept across the call: every register here is the caller's.
        call    sonde_vector_area
        cmpl    $512, %eax
        je      .Lfxrstor
        movl    $-1, %eax
        movl    $-1, %edx
        xrstor64 (%rsp)
        jmp     .Lout
.Lfxrstor:
        fxrstor64 (%rsp)
        jmp     .Lout
        .cfi_endproc
        .size   sonde_watch_trampoline, .-sonde_watch_trampoline

#endif

        .section .note.GNU-stack,"",@progbits
