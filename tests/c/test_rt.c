/*
 * test_rt.c - the runtime without a GPU: size classes and the caching
 * allocator, copies, streams and events on the simulator backend, pinned
 * memory, and the error a missing driver gives.  (The GPU backend is
 * tested from Python against tests/fake_cuda, a stand-in libcuda.)
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rt/rt.h"

TEST(size_classes)
{
	int bin, last = -1;
	CHECK_EQ_INT(rt_size_class(1, &bin), 512);
	CHECK_EQ_INT(bin, 0);
	CHECK_EQ_INT(rt_size_class(512, &bin), 512);
	CHECK_EQ_INT(rt_size_class(513, &bin), 640);
	CHECK_EQ_INT(bin, 1);
	CHECK_EQ_INT(rt_size_class(1024, &bin), 1024);
	CHECK_EQ_INT(bin, 4);
	CHECK_EQ_INT(rt_size_class(1025, &bin), 1280);
	CHECK_EQ_INT(bin, 5);
	/* classes grow with the size, never lose more than a quarter, stay in range */
	for (size_t n = 1; n < ((size_t)1 << 30); n = n * 3 / 2 + 7) {
		size_t c = rt_size_class(n, &bin);
		CHECK(c >= n && (n <= 512 || c <= n + n / 4 + 1));
		CHECK(bin >= last && bin < RT_NBINS);
		last = bin;
	}
	/* huge blocks are not binned */
	CHECK_EQ_INT(rt_size_class(((size_t)1 << 30) + 1, &bin) % (2 << 20), 0);
	CHECK_EQ_INT(bin, -1);
}

TEST(allocator_reuses_blocks)
{
	Rt *rt = rt_new(1, 0, 0);
	RtErr e;
	CUdeviceptr a, b, c, z;
	RtMemStats s;
	CHECK(rt_alloc(rt, 1000, &a, &e) == 0 && a != 0);
	CHECK(a % 256 == 0);
	CHECK(rt_alloc(rt, 0, &z, &e) == 0 && z == 0);
	rt_release(rt, a, 1000, rt->gen);
	rt_mem_stats(rt, &s);
	CHECK_EQ_INT(s.cached_bytes, 1024);
	CHECK_EQ_INT(s.live_bytes, 0);
	CHECK(rt_alloc(rt, 900, &b, &e) == 0);     /* same class: the same block */
	CHECK(b == a);
	CHECK(rt_alloc(rt, 5000, &c, &e) == 0);    /* another class: a new block */
	CHECK(c != a);
	rt_mem_stats(rt, &s);
	CHECK_EQ_INT(s.hits, 1);
	CHECK_EQ_INT(s.driver_allocs, 2);
	CHECK_EQ_INT(s.cached_bytes, 0);
	rt_release(rt, b, 900, rt->gen);
	rt_release(rt, c, 5000, rt->gen);
	rt_trim(rt);
	rt_mem_stats(rt, &s);
	CHECK_EQ_INT(s.cached_bytes, 0);
	CHECK_EQ_INT(s.live_bytes, 0);
	CHECK(rt_alloc(rt, (size_t)1 << 60, &a, &e) != 0);
	CHECK_EQ_INT(e.code, RT_E_ARG);
	free(rt);
}

TEST(sim_copies)
{
	Rt *rt = rt_new(1, 0, 0);
	RtErr e;
	CUdeviceptr d, d2;
	double in[100], out[100];
	for (int i = 0; i < 100; i++)
		in[i] = i * 0.5;
	CHECK(rt_alloc(rt, sizeof in, &d, &e) == 0);
	CHECK(rt_alloc(rt, sizeof in, &d2, &e) == 0);
	CHECK(rt_htod(rt, d, in, sizeof in, NULL, 0, &e) == 0);
	CHECK(rt_dtod(rt, d2, d, sizeof in, NULL, 1, &e) == 0);
	CHECK(rt_memset(rt, d, 0, sizeof in, &e) == 0);
	CHECK(rt_dtoh(rt, out, d2, sizeof out, NULL, 0, &e) == 0);
	CHECK(memcmp(in, out, sizeof in) == 0);
	CHECK(rt_dtoh(rt, out, d, sizeof out, NULL, 0, &e) == 0);
	CHECK(out[7] == 0.0);
	rt_release(rt, d, sizeof in, rt->gen);
	rt_release(rt, d2, sizeof in, rt->gen);
	rt_trim(rt);
	free(rt);
}

TEST(sim_streams_events_pinned)
{
	Rt *rt = rt_new(1, 0, 0);
	RtErr e;
	CUstream s1, s2;
	RtEvent a, b;
	float ms = -1;
	int done = 0;
	CHECK(rt_stream_new(rt, &s1, &e) == 0 && rt_stream_new(rt, &s2, &e) == 0);
	CHECK(s1 != s2 && s1 != NULL);
	CHECK(rt_stream_sync(rt, s1, &e) == 0);
	CHECK(rt_stream_query(rt, s2, &done, &e) == 0 && done == 1);
	CHECK(rt_event_new(rt, &a, 1, &e) == 0 && rt_event_new(rt, &b, 1, &e) == 0);
	CHECK(rt_event_elapsed(rt, &a, &b, &ms, &e) != 0);   /* not recorded yet */
	CHECK_EQ_INT(e.code, RT_E_ARG);
	CHECK_STR_CONTAINS(e.msg, "recorded");
	CHECK(rt_event_record(rt, &a, s1, &e) == 0);
	CHECK(rt_event_record(rt, &b, s1, &e) == 0);
	CHECK(rt_event_sync(rt, &b, &e) == 0);
	CHECK(rt_event_elapsed(rt, &a, &b, &ms, &e) == 0 && ms >= 0);
	rt_event_free(rt, &a);
	rt_event_free(rt, &b);
	rt_stream_free(rt, s1, rt->gen);
	rt_stream_free(rt, s2, rt->gen);

	void *p = NULL;
	CHECK(rt_host_alloc(rt, 10000, &p, NULL, &e) == 0 && p != NULL);
	CHECK(rt_is_pinned(rt, (char *)p + 100, 1000));
	CHECK(!rt_is_pinned(rt, (char *)p + 100, 100000));
	CHECK(!rt_is_pinned(rt, &e, sizeof e));
	rt_host_free(rt, p);
	CHECK(!rt_is_pinned(rt, p, 1));
	free(rt->pinned);
	free(rt);
}

TEST(no_driver)
{
	setenv("PTXJIT_LIBCUDA", "/nonexistent/libcuda.so.1", 1);
	Rt *rt = rt_new(0, 0, 0);
	RtErr e;
	CUdeviceptr d;
	CHECK(!rt_available(rt));
	CHECK(rt_alloc(rt, 100, &d, &e) != 0);
	CHECK_EQ_INT(e.code, RT_E_NODRIVER);
	CHECK_STR_CONTAINS(e.msg, "no CUDA driver was found");
	CHECK_STR_CONTAINS(e.msg, "/nonexistent/libcuda.so.1 could not be loaded");
	CHECK_STR_CONTAINS(e.msg, "PTXJIT_SIM=1");
	/* the same error again, without trying to load anything */
	memset(&e, 0, sizeof e);
	CHECK(rt_sync(rt, &e) != 0);
	CHECK_EQ_INT(e.code, RT_E_NODRIVER);
	CHECK(rt_close(rt, &e) == 0);      /* close forgets the failure ... */
	CHECK_EQ_INT(rt->state, RT_UNINIT);
	CHECK(rt_sync(rt, &e) != 0);       /* ... and the next use tries again */
	CHECK_EQ_INT(e.code, RT_E_NODRIVER);
	unsetenv("PTXJIT_LIBCUDA");
	free(rt);
}

int main(void)
{
	RUN(size_classes);
	RUN(allocator_reuses_blocks);
	RUN(sim_copies);
	RUN(sim_streams_events_pinned);
	RUN(no_driver);
	return check_summary("rt");
}
