"""Several GPUs in one process, without a GPU: child processes load the
fake driver (tests/fake_cuda/fake_libcuda.c) with FAKE_CUDA_DEVICES=2.
The fake gives each device its own context and refuses (counting them in
"wrong_ctx") allocations freed, copies, launches and peer copies made
while the wrong context is current, so these tests check that the runtime
enters the right context for each; its launches XOR a constant into their
first argument (launch_xor32), which makes the "kernel"'s result checkable
against NumPy.  tests/test_multi_gpu.py runs real kernels on real GPUs."""

import textwrap

from test_runtime import fake_driver, run_fake  # noqa: F401  (the fixture)

TWO = {"FAKE_CUDA_DEVICES": 2}

XOR_KERNEL = """
@cuda.jit
def xor(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] ^= 1
rng = np.random.default_rng(SEED)
def data(n):
    return rng.integers(1, 2**31 - 1, n, dtype=np.int32)
"""


def body(text, seed=1):
    return XOR_KERNEL.replace("SEED", str(seed)) + textwrap.dedent(text)


def test_devices_are_listed_with_their_own_properties(fake_driver, tmp_path):
    res = run_fake(body("""
        setf("cc1", 80)
        result["len"] = len(cuda.gpus)
        result["ids"] = [d.id for d in cuda.gpus]
        result["listed"] = [d.id for d in cuda.list_devices()]
        result["cc"] = [list(cuda.gpus[i].compute_capability) for i in range(2)]
        result["names"] = [cuda.gpus[i].name for i in range(2)]
        result["sm1"] = cuda.gpus[1].MULTIPROCESSOR_COUNT
        result["current"] = cuda.get_current_device().id
        result["selected"] = cuda.select_device(1).id
        result["after"] = [cuda.get_current_device().id, cuda.gpus.current.id]
        try:
            cuda.select_device(2)
        except IndexError as e:
            result["bad"] = str(e)
        try:
            cuda.gpus[2]
        except IndexError as e:
            result["bad_gpus"] = str(e)
        result["still"] = cuda.get_current_device().id
    """), fake_driver, tmp_path, **TWO)
    assert "raised" not in res, res
    assert res["len"] == 2 and res["ids"] == [0, 1] and res["listed"] == [0, 1]
    assert res["cc"] == [[9, 0], [8, 0]]
    assert res["names"][1] == "Fake GPU 1 (tests/fake_cuda)" and res["sm1"] == 132
    assert res["current"] == 0 and res["selected"] == 1 and res["after"] == [1, 1]
    assert "no CUDA device 2" in res["bad"] and "sees 2 devices" in res["bad"], res["bad"]
    assert "2 devices" in res["bad_gpus"]
    assert res["still"] == 1


def test_each_device_allocates_launches_copies_and_frees_in_its_own_context(fake_driver, tmp_path):
    res = run_fake(body("""
        setf("launch_xor32", 0x13572468)
        a0, a1 = data(1000), data(700)
        d0 = cuda.to_device(a0)
        with cuda.gpus[1] as g:
            result["inside"] = cuda.get_current_device().id
            d1 = cuda.to_device(a1)
            xor[8, 128](d1)
            result["dev_of_launch1"] = get("launch_device")
        result["outside"] = cuda.get_current_device().id
        xor[8, 128](d0)
        result["dev_of_launch0"] = get("launch_device")
        result["device_ids"] = [d0.device_id, d1.device_id]
        result["dlpack"] = [list(d0.__dlpack_device__()), list(d1.__dlpack_device__())]
        h = data(900)
        want = h ^ 0x13572468
        with cuda.gpus[1]:
            allocs1 = get("allocs1")
            xor[8, 128](h)          # a NumPy argument: copied to device 1 and back
            result["numpy_on_1"] = [get("launch_device"), get("allocs1") > allocs1]
        result["ok_numpy"] = bool((h == want).all())
        result["ok0"] = bool((d0.copy_to_host() == (a0 ^ 0x13572468)).all())   # device 0 current
        result["ok1"] = bool((d1.copy_to_host() == (a1 ^ 0x13572468)).all())   # device 1's array
        result["allocs"] = [get("allocs0"), get("allocs1")]
        result["modules"] = get("module_loads")
        with cuda.gpus[1]:
            del d0                  # device 0's memory, freed while device 1 is current
        del d1
        from ptxjit import _core
        _core.trim()
        result["live"] = [get("live0"), get("live1")]
        result["wrong_ctx"] = get("wrong_ctx")
    """), fake_driver, tmp_path, **TWO)
    assert "raised" not in res, res
    assert res["inside"] == 1 and res["outside"] == 0
    assert res["dev_of_launch1"] == 1 and res["dev_of_launch0"] == 0
    assert res["device_ids"] == [0, 1] and res["dlpack"] == [[2, 0], [2, 1]]   # kDLCUDA
    assert res["numpy_on_1"] == [1, True] and res["ok_numpy"]
    assert res["ok0"] and res["ok1"]
    assert res["allocs"][0] >= 1 and res["allocs"][1] >= 1
    assert res["modules"] == 2                       # one compile, loaded on each device
    assert res["live"] == [0, 0] and res["wrong_ctx"] == 0


def test_copies_between_devices_go_peer_to_peer(fake_driver, tmp_path):
    for no_peer in (0, 1):
        res = run_fake(body("""
            setf("no_peer", NO_PEER)
            a = data(4096)
            d0 = cuda.to_device(a)
            with cuda.gpus[1]:
                d1 = cuda.device_array_like(d0)
                d1.copy_to_device(d0)           # from device 0 to device 1
                s = cuda.stream()
                back = cuda.to_device(np.zeros_like(a))
            result["peer"] = get("peer_copies")
            result["enables"] = get("peer_enables")
            result["ok1"] = bool((d1.copy_to_host() == a).all())
            back.copy_to_device(d1, stream=s)   # device 1 to device 1 on its stream, from device 0
            s.synchronize()
            result["ok_back"] = bool((back.copy_to_host() == a).all())
            d0.copy_to_device(np.zeros_like(a))
            d0.copy_to_device(d1)               # back to device 0
            result["ok0"] = bool((d0.copy_to_host() == a).all())
            result["peer_after"] = get("peer_copies")
            result["wrong_ctx"] = get("wrong_ctx")
        """.replace("NO_PEER", str(no_peer)), seed=2 + no_peer), fake_driver, tmp_path, **TWO)
        assert "raised" not in res, res
        assert res["ok1"] and res["ok_back"] and res["ok0"]
        assert res["peer"] == 1 and res["peer_after"] == 2
        assert res["enables"] == (0 if no_peer else 2)   # both ways, once
        assert res["wrong_ctx"] == 0


def test_arrays_and_streams_of_another_device_are_refused_at_launch(fake_driver, tmp_path):
    res = run_fake(body("""
        setf("launch_xor32", 7)
        a = data(256)
        with cuda.gpus[1]:
            d1 = cuda.to_device(a)
            s1 = cuda.stream()
        try:
            xor[2, 128](d1)
        except errors.CudaDriverError as e:
            result["array"] = str(e)
        d0 = cuda.to_device(a)
        try:
            xor[2, 128, s1](d0)
        except errors.CudaDriverError as e:
            result["stream"] = str(e)
        launcher = xor[2, 128, s1]
        with cuda.gpus[1]:
            launcher(d1)                # the stream's device: fine
        try:
            launcher(d0)                # kept launcher, device 0 current
        except errors.CudaDriverError as e:
            result["kept"] = str(e)
        try:
            d0.copy_to_host(stream=s1)
        except errors.CudaDriverError as e:
            result["copy"] = str(e)
        result["launches"] = get("launches")
        result["ok1"] = bool((d1.copy_to_host() == (a ^ 7)).all())
        result["ok0"] = bool((d0.copy_to_host() == a).all())
        result["wrong_ctx"] = get("wrong_ctx")
    """, seed=4), fake_driver, tmp_path, **TWO)
    assert "raised" not in res, res
    assert "argument 1 ('a'), a device array, is on device 1" in res["array"], res["array"]
    assert "runs on device 0" in res["array"] and "copy_to_device" in res["array"]
    for k in ("stream", "kept", "copy"):
        assert "is on device 1, and this work runs on device 0" in res[k], (k, res[k])
    assert res["launches"] == 1 and res["ok1"] and res["ok0"] and res["wrong_ctx"] == 0


def test_threads_each_use_their_own_device(fake_driver, tmp_path):
    res = run_fake(body("""
        import threading
        setf("launch_xor32", 0x5a5a5a5a)
        inputs = [data(3000 + 17 * i) for i in range(8)]
        out, seen, errs = {}, {}, []
        def work(t):
            try:
                dev = t % 2
                seen[t] = [cuda.get_current_device().id]
                with cuda.gpus[dev]:
                    seen[t].append(cuda.get_current_device().id)
                    for r in range(20):
                        d = cuda.to_device(inputs[t])
                        xor[32, 128](d)
                        h = d.copy_to_host()
                        assert d.device_id == dev
                    out[t] = h
                seen[t].append(cuda.get_current_device().id)
            except BaseException as e:
                errs.append(repr(e))
        ts = [threading.Thread(target=work, args=(t,)) for t in range(8)]
        for t in ts: t.start()
        for t in ts: t.join()
        result["errs"] = errs
        result["ok"] = all((out[t] == (inputs[t] ^ 0x5a5a5a5a)).all() for t in range(8))
        result["seen"] = [seen[t] for t in range(8)]
        result["main"] = cuda.get_current_device().id
        result["wrong_ctx"] = get("wrong_ctx")
        result["allocs"] = [get("allocs0"), get("allocs1")]
    """, seed=5), fake_driver, tmp_path, **TWO)
    assert "raised" not in res, res
    assert res["errs"] == [] and res["ok"]
    assert res["seen"] == [[0, t % 2, 0] for t in range(8)]
    assert res["main"] == 0 and res["wrong_ctx"] == 0
    assert res["allocs"][0] >= 1 and res["allocs"][1] >= 1


def test_a_kernel_is_compiled_once_per_compute_capability(fake_driver, tmp_path):
    for cc1 in (90, 80):
        res = run_fake(body("""
            setf("cc1", CC1)
            setf("launch_xor32", 3)
            a = data(100)
            d0 = cuda.to_device(a)
            xor[1, 128](d0)
            with cuda.gpus[1]:
                d1 = cuda.to_device(a)
                xor[1, 128](d1)
                xor[1, 128](d1)
            xor[1, 128](d0)
            targets = sorted(set(l.split()[1] for k in xor._variants.values()
                                 for l in k.ptx.splitlines() if l.startswith(".target")))
            result["targets"] = targets
            result["modules"] = get("module_loads")
            result["ok"] = [bool((d.copy_to_host() == a).all()) for d in (d0, d1)]
        """.replace("CC1", str(cc1)), seed=6), fake_driver, tmp_path, **TWO)
        assert "raised" not in res, res
        assert res["ok"] == [True, True]             # two XORs each
        assert res["modules"] == 2
        assert res["targets"] == (["sm_90"] if cc1 == 90 else ["sm_80", "sm_90"]), res["targets"]


def test_with_restores_the_device_and_close_releases_every_context(fake_driver, tmp_path):
    res = run_fake(body("""
        cuda.select_device(1)
        with cuda.gpus[0]:
            with cuda.gpus[1]:
                inner = cuda.get_current_device().id
            middle = cuda.get_current_device().id
            try:
                with cuda.gpus[1]:
                    raise KeyError("x")
            except KeyError:
                pass
            result["after_raise"] = cuda.get_current_device().id
        result["path"] = [inner, middle, cuda.get_current_device().id]
        d1 = cuda.to_device(data(10))
        with cuda.gpus[0]:
            d0 = cuda.to_device(data(10))
        with cuda.gpus[1]:
            d1b = cuda.to_device(data(10))
        cuda.gpus[1].reset()                # device 1 only
        result["after_reset"] = [cuda.get_current_device().id, d0.copy_to_host().size]
        try:
            d1b.copy_to_host()
        except errors.CudaDriverError as e:
            result["reset_stale"] = "before cuda.close()" in str(e)
        d1 = cuda.to_device(data(10))       # device 1 again: a new context
        cuda.close()
        result["after_close"] = cuda.get_current_device().id
        for d in (d0, d1):
            try:
                d.copy_to_host()
            except errors.CudaDriverError as e:
                result.setdefault("stale", []).append("before cuda.close()" in str(e))
        result["wrong_ctx"] = get("wrong_ctx")
    """, seed=7), fake_driver, tmp_path, **TWO)
    assert "raised" not in res, res
    assert res["path"] == [1, 0, 1] and res["after_raise"] == 0
    assert res["after_reset"] == [1, 10] and res["reset_stale"] is True
    assert res["after_close"] == 0
    assert res["stale"] == [True, True] and res["wrong_ctx"] == 0
