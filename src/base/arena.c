/*
 * arena.c - the compile request's allocator.
 *
 * Every object of one request (tokens, AST, types, IR, PTX text) comes
 * from one arena and is released whole by arena_free.  Allocation is a
 * pointer bump in chunks of at least 64 KiB; memory is zeroed.  An
 * allocation failure is reported as an internal error through the context
 * that owns the arena, so callers never see NULL.
 */
#include <stdlib.h>
#include <string.h>

#include "../core.h"

typedef struct Chunk {
	struct Chunk *next;
	size_t size, used;
	_Alignas(16) unsigned char mem[];
} Chunk;

struct Arena {
	Chunk *head;
	size_t total;
};

/* The PjArena of the public API is the same object. */
void *pj_alloc(PjArena *a, size_t n) { return arena_alloc((Arena *)a, n); }

Arena *arena_new(void)
{
	return calloc(1, sizeof(Arena));
}

void arena_free(Arena *a)
{
	if (!a)
		return;
	for (Chunk *c = a->head, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	free(a);
}

void *arena_alloc(Arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	Chunk *c = a->head;
	if (!c || c->size - c->used < n) {
		size_t size = n > 65536 ? n : 65536;
		c = malloc(sizeof(Chunk) + size);
		if (!c)
			abort();  /* out of host memory: nothing sensible remains */
		c->size = size;
		c->used = 0;
		c->next = a->head;
		a->head = c;
		a->total += size;
	}
	void *p = c->mem + c->used;
	c->used += n;
	memset(p, 0, n);
	return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *arena_strdup(Arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *arena_printf(Arena *a, const char *fmt, ...)
{
	va_list ap, ap2;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *p = arena_alloc(a, (size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return p;
}

void *arena_grow(Arena *a, void *p, int n, int *cap, size_t elem)
{
	if (n < *cap)
		return p;
	int ncap = *cap ? *cap * 2 : 8;
	void *q = arena_alloc(a, (size_t)ncap * elem);
	if (p && n)
		memcpy(q, p, (size_t)n * elem);
	*cap = ncap;
	return q;
}
