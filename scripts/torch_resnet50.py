#!/usr/bin/env python3
"""torchvision ResNet-50 training throughput on one GPU, the reference for dlsize's CUDA step.

Same work as `dlsize calibrate --workload resnet50`: synthetic data on the device, SGD with
momentum, batch B, channels_last, AMP (fp16 autocast with a gradient scaler) or TF32, with
cudnn.benchmark on. Reports images/s two ways, as dlsize calibrate does: wall to wall (host
clock from before the first measured step to after the last, synchronized at both ends) and
event to event (CUDA events at the same two points). Prints one JSON line, also to --out.
"""
import argparse
import json
import time

import torch
import torch.nn.functional as F
import torchvision


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--precision", choices=["fp16", "tf32"], default="fp16")
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--steps", type=int, default=30)
    p.add_argument("--out", help="also write the JSON line to this file")
    a = p.parse_args()
    torch.backends.cudnn.benchmark = True
    torch.backends.cuda.matmul.allow_tf32 = a.precision == "tf32"
    torch.backends.cudnn.allow_tf32 = a.precision == "tf32"
    fp16 = a.precision == "fp16"
    model = torchvision.models.resnet50().cuda().to(memory_format=torch.channels_last)
    opt = torch.optim.SGD(model.parameters(), lr=0.1 * a.batch / 256, momentum=0.9, weight_decay=5e-5)
    scaler = torch.amp.GradScaler("cuda", enabled=fp16)
    x = torch.randn(a.batch, 3, 224, 224, device="cuda").to(memory_format=torch.channels_last)
    y = torch.randint(0, 1000, (a.batch,), device="cuda")

    def step():
        with torch.autocast("cuda", dtype=torch.float16, enabled=fp16):
            loss = F.cross_entropy(model(x), y)
        opt.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        return loss

    for _ in range(a.warmup):
        step()
    begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    begin.record()
    for _ in range(a.steps):
        loss = step()
    end.record()
    torch.cuda.synchronize()
    dt = time.perf_counter() - t0
    event_s = begin.elapsed_time(end) / 1e3
    line = json.dumps({"images_per_s": a.batch * a.steps / dt, "images_per_s_event": a.batch * a.steps / event_s,
                       "step_s": dt / a.steps, "batch": a.batch, "precision": a.precision, "warmup": a.warmup,
                       "steps": a.steps, "channels_last": True, "loss": float(loss),
                       "gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
                       "cudnn": torch.backends.cudnn.version()})
    print(line)
    if a.out:
        with open(a.out, "w") as f:
            f.write(line + "\n")


if __name__ == "__main__":
    main()
