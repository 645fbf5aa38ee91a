# cuBLAS sgemv (through PyTorch) on the B'g shape of the acceptance target, for comparison in the same session.
import torch
for n, cols in [(100000, 6400), (100000, 64), (1000000, 3200)]:
    B = torch.rand(n, cols, device="cuda")
    g = torch.rand(n, device="cuda")
    for _ in range(3): torch.mv(B.t(), g)
    torch.cuda.synchronize()
    times = []
    for _ in range(50):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); torch.mv(B.t(), g); e.record(); torch.cuda.synchronize()
        times.append(s.elapsed_time(e) * 1e-3)
    times.sort()
    med = times[len(times) // 2]
    print(f"cuBLAS (torch.mv) B'g n={n} cols={cols}: median {med*1e3:.4g} ms, {4*(n*cols+n+cols)/med/1e9:.4g} GB/s")
    del B
