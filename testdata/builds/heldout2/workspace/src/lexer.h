#ifndef DRIFT_LEXER_H
#define DRIFT_LEXER_H

enum {
    TOK_AND = 256, TOK_OR, TOK_NOT, TOK_WHERE, TOK_SELECT, TOK_FROM, TOK_MATCH,
    TOK_IN, TOK_BETWEEN, TOK_IS, TOK_NULL, TOK_TRUE, TOK_FALSE, TOK_LIMIT,
    TOK_ORDER, TOK_BY, TOK_ASC, TOK_DESC, TOK_IDENT
};

int drift_keyword(const char *word);
int drift_opgroup_count(void);

#endif
