/*
 * names.c - NameMap: names to small numbers in expected constant time,
 * for tables that are looked up by name once per use in the source (a
 * function's variables, a record's fields), which a linear search would
 * make quadratic in the size of the source.
 *
 * Open addressing with linear probing over a power-of-two table kept at
 * most half full; the keys are the callers' strings (not copied), the
 * table comes from the arena and is dropped with it.
 */
#include <string.h>

#include "../core.h"

static uint32_t hash_name(const char *s)
{
	uint32_t h = 2166136261u;   /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

int names_get(const NameMap *m, const char *name)
{
	if (!m->cap || !name)
		return -1;
	for (uint32_t i = hash_name(name) & (uint32_t)(m->cap - 1);; i = (i + 1) & (uint32_t)(m->cap - 1)) {
		if (!m->keys[i])
			return -1;
		if (strcmp(m->keys[i], name) == 0)
			return m->vals[i];
	}
}

static void put(NameMap *m, const char *name, int val)
{
	uint32_t i = hash_name(name) & (uint32_t)(m->cap - 1);
	while (m->keys[i] && strcmp(m->keys[i], name) != 0)
		i = (i + 1) & (uint32_t)(m->cap - 1);
	if (!m->keys[i])
		m->n++;
	m->keys[i] = name;
	m->vals[i] = val;
}

void names_put(Ctx *c, NameMap *m, const char *name, int val)
{
	if (2 * (m->n + 1) > m->cap) {
		NameMap old = *m;
		m->cap = old.cap ? 2 * old.cap : 16;
		m->n = 0;
		m->keys = arena_alloc(c->arena, sizeof *m->keys * (size_t)m->cap);
		m->vals = arena_alloc(c->arena, sizeof *m->vals * (size_t)m->cap);
		for (int i = 0; i < old.cap; i++)
			if (old.keys[i])
				put(m, old.keys[i], old.vals[i]);
	}
	put(m, name, val);
}
