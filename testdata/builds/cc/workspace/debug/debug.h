#ifndef DEBUG_DEBUG_H_
#define DEBUG_DEBUG_H_

int Twice(int x);

#endif  // DEBUG_DEBUG_H_
