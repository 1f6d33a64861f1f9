#include <stdio.h>

int alpha_value(void);

int main(void) {
    printf("%d\n", alpha_value());
    return 0;
}
