// An LTTng-UST tracepoint with the payload sonde's watch benchmark records
// (one 64-bit integer), for the side-by-side comparison in RuntimeBench.
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER sonde_bench

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "LttngTp.h"

#if !defined(SONDE_BENCH_LTTNG_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define SONDE_BENCH_LTTNG_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT(sonde_bench, watch, TP_ARGS(int64_t, value),
                 TP_FIELDS(ctf_integer(int64_t, value, value)))

#endif

#include <lttng/tracepoint-event.h>
