#include <stdio.h>
#include <unistd.h>

int main(void) {
	char host[256];
	gethostname(host, sizeof host);
	printf("built on %s\n", host);
	return 0;
}
