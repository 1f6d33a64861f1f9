#include <ctype.h>
#include "minijson.h"

int mj_tokenize(const char *s, size_t len, struct mj_token *toks, int max) {
    int n = 0;
    size_t i = 0;
    while (i < len && n < max) {
        char c = s[i];
        if (isspace((unsigned char)c) || c == ',' || c == ':' || c == '}' || c == ']') {
            i++;
            continue;
        }
        toks[n].start = i;
        if (c == '{' || c == '[') {
            toks[n].type = c == '{' ? MJ_OBJECT : MJ_ARRAY;
            i++;
        } else if (c == '"') {
            toks[n].type = MJ_STRING;
            for (i++; i < len && s[i] != '"'; i++)
                if (s[i] == '\\')
                    i++;
            if (i >= len)
                return -1;
            i++;
        } else if (c == '-' || isdigit((unsigned char)c)) {
            toks[n].type = MJ_NUMBER;
            while (i < len && (isdigit((unsigned char)s[i]) || s[i] == '-' || s[i] == '.' || s[i] == 'e' || s[i] == 'E' || s[i] == '+'))
                i++;
        } else if (isalpha((unsigned char)c)) {
            toks[n].type = MJ_LITERAL;
            while (i < len && isalpha((unsigned char)s[i]))
                i++;
        } else {
            return -1;
        }
        toks[n++].end = i;
    }
    return n;
}
