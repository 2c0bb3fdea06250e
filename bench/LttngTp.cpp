// Instantiates the LTTng-UST probe of LttngTp.h in the benchmark binary.
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "LttngTp.h"
