/* The default number of worker threads, as configured at build time. */
#ifndef DEFAULT_JOBS
#define DEFAULT_JOBS 1
#endif
const int default_jobs = DEFAULT_JOBS;
