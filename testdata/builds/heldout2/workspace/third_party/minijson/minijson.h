#ifndef MINIJSON_H
#define MINIJSON_H
#include <stddef.h>

enum mj_type { MJ_NONE, MJ_OBJECT, MJ_ARRAY, MJ_STRING, MJ_NUMBER, MJ_LITERAL };

struct mj_token {
    enum mj_type type;
    size_t start, end;
};

/* Returns the number of tokens read into toks, or -1 on a syntax error. */
int mj_tokenize(const char *s, size_t len, struct mj_token *toks, int max);
#endif
