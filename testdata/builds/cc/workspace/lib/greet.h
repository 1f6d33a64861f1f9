#ifndef LIB_GREET_H_
#define LIB_GREET_H_

#include <string>

std::string Greeting(const std::string& name);

#endif  // LIB_GREET_H_
