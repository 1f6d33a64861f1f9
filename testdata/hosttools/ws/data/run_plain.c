#include <stdio.h>

int main(void) {
	puts("generated");
	return 0;
}
