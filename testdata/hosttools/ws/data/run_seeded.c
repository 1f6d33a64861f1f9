#include <stdio.h>
#include <stdlib.h>

int main(void) {
	srand(1234);
	printf("salt %d\n", rand());
	return 0;
}
