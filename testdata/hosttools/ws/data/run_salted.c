#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(void) {
	srand((unsigned)time(NULL) ^ (unsigned)getpid());
	printf("salt %d\n", rand());
	return 0;
}
