/*
 * interrupt.c - Ctrl-C while the simulator or the @njit interpreter runs.
 *
 * Both run in C for as long as the program says, the simulator with the
 * GIL let go, so Python's own SIGINT handler only notes the signal and
 * nobody looks until the run ends.  So a handler of ours stands in front
 * of Python's: it sets the simulator's stop flag (pj_sim_stop), which
 * every running simulation in every thread looks at every few thousand
 * loop turns, and then calls Python's handler, so that Python knows of
 * the signal as before.  The run returns PJ_SIM_STOPPED, and
 * raise_stopped lets Python's handler raise (KeyboardInterrupt unless the
 * program set another handler).
 *
 * The handler is put in place by the first run, and checked again every
 * CHECK_EVERY runs (signal.signal in Python puts Python's own back), so
 * that a run costs no system call; with SIGINT ignored or left to its
 * default action it is not put in place.  Outside runs it only passes the
 * signal on.  The flag is cleared when a run starts and no other is going
 * on; a signal that came just before that is Python's to raise, which
 * stop_begin asks first (PyErr_CheckSignals), so none is lost.
 *
 * Compiled @njit code (a C compiler present) is not interruptible, as
 * Numba's is not.
 */
#include "py.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

#define CHECK_EVERY 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;   /* python_handler, the handler's place */
static atomic_uint runs;           /* runs started, for CHECK_EVERY */
static atomic_int depth;           /* runs going on */
static struct sigaction python_handler;

static void on_sigint(int sig, siginfo_t *info, void *uc)
{
	int saved = errno;
	pj_sim_stop(1);
	if (python_handler.sa_flags & SA_SIGINFO)
		python_handler.sa_sigaction(sig, info, uc);
	else
		python_handler.sa_handler(sig);
	errno = saved;
}

static int is_ours(const struct sigaction *sa)
{
	return (sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == on_sigint;
}

static int is_function(const struct sigaction *sa)
{
	if (sa->sa_flags & SA_SIGINFO)
		return sa->sa_sigaction != NULL;
	return sa->sa_handler != SIG_DFL && sa->sa_handler != SIG_IGN;
}

static void put_in_front(void)
{
	struct sigaction cur, ours;
	pthread_mutex_lock(&lock);
	if (sigaction(SIGINT, NULL, &cur) == 0 && is_function(&cur) && !is_ours(&cur)) {
		python_handler = cur;
		memset(&ours, 0, sizeof ours);
		ours.sa_sigaction = on_sigint;
		ours.sa_mask = cur.sa_mask;
		ours.sa_flags = SA_SIGINFO | (cur.sa_flags & (SA_ONSTACK | SA_RESTART));
		sigaction(SIGINT, &ours, NULL);
	}
	pthread_mutex_unlock(&lock);
}

int stop_begin(void)
{
	if (atomic_fetch_add_explicit(&runs, 1, memory_order_relaxed) % CHECK_EVERY == 0)
		put_in_front();
	if (atomic_fetch_add(&depth, 1) == 0)
		pj_sim_stop(0);
	if (PyErr_CheckSignals() < 0) {
		stop_end();
		return -1;
	}
	return 0;
}

void stop_end(void)
{
	atomic_fetch_sub(&depth, 1);
}

PyObject *raise_stopped(void)
{
	if (PyErr_CheckSignals() < 0)
		return NULL;
	/* another thread than the main one, or a Python handler that did not
	 * raise: the run is gone all the same */
	PyErr_SetNone(PyExc_KeyboardInterrupt);
	return NULL;
}
