#ifndef STAMP_BUILDINFO_H_
#define STAMP_BUILDINFO_H_

// Defined by the linkstamp, compiled at link time.
extern const char kBuildTimestamp[];
extern const char kBuildRevision[];

#endif  // STAMP_BUILDINFO_H_
