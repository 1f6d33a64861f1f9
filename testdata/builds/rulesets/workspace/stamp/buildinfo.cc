// The build-info macros come from the headers Bazel includes in a
// linkstamp's compile: BUILD_TIMESTAMP always, BUILD_SCM_REVISION when the
// workspace status command prints it and Bazel passes it on.
#include "stamp/buildinfo.h"

#define STRINGIFY(x) #x
#define AS_STRING(x) STRINGIFY(x)

#ifndef BUILD_SCM_REVISION
#define BUILD_SCM_REVISION "unknown"
#endif

extern const char kBuildTimestamp[] = AS_STRING(BUILD_TIMESTAMP);
extern const char kBuildRevision[] = AS_STRING(BUILD_SCM_REVISION);
