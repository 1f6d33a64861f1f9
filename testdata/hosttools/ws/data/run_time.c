#include <stdio.h>
#include <time.h>

int main(void) {
	printf("generated at %ld\n", (long)time(NULL));
	return 0;
}
