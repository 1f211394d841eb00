"""Runs page jobs in parallel and writes the PDF (the output does not depend on how).

Pages are painted and JPEG-encoded in forked worker processes when the caller is a
single-threaded CLI, in threads inside a threaded server (the web app): forking a threaded
process is unsafe and spawn would re-run the server's __main__. Pillow releases the GIL
while encoding, so threads still help.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager

from companion.printing.engine import JPEG_QUALITY, PageJob, Progress, encode
from companion.printing.pdf import PdfImage, write_pdf


def _encode_star(args: tuple[PageJob, int, bool, str]) -> PdfImage:
    return encode(*args)


def _ignore_sigint() -> None:
    """In a worker process: Ctrl-C (SIGINT to the whole process group) is the parent's to handle;
    the worker finishes its page and is shut down, instead of printing its own traceback. The worker
    was forked with SIGINT blocked (_sigint_to_this_thread): ignored first, then unblocked, so a
    Ctrl-C between the fork and here is dropped too."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextmanager
def _sigint_to_this_thread() -> Iterator[None]:
    """SIGINT blocked in this thread while the pool starts: its helper threads (the executor's
    manager and queue feeder, or the print threads) and its forked workers inherit the mask, so a
    Ctrl-C is only ever delivered to the caller's thread. Python runs signal handlers in the main
    thread only, and a SIGINT the kernel gives to another thread is not even noticed by a main
    thread blocked in Future.result() (no EINTR there): it waits for the next page, or longer. A
    Ctrl-C that comes while blocked here is delivered when this ends (KeyboardInterrupt)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _can_fork() -> bool:
    """Worker processes only by fork, and only from a single-threaded process (the CLI)."""
    return threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()


def encode_all(jobs: list[PageJob], quality: int = JPEG_QUALITY, workers: int | None = None,
               progress: Progress | None = None, optimize: bool = False, image_format: str = "indexed"
               ) -> list[PdfImage]:
    """Paint and encode every page, in worker processes when it pays off. Order is kept."""
    n = len(jobs)
    workers = workers if workers is not None else min(4, os.cpu_count() or 1)
    out: list[PdfImage] = []
    if workers <= 1 or n < 4:
        for i, job in enumerate(jobs):
            out.append(encode(job, quality, optimize, image_format))
            if progress:
                progress(i + 1, n)
        return out
    args = [(j, quality, optimize, image_format) for j in jobs]
    ex: Executor
    if _can_fork():
        # contiguous chunks: pages of one deck stay on one worker, so its face cache is reused
        ex = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"),
                                 initializer=_ignore_sigint)
        chunk = max(1, n // (workers * 3))
    else:
        ex = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="print")
        chunk = 1
    try:
        with _sigint_to_this_thread():  # map() submits every chunk: workers and threads start here
            pages = ex.map(_encode_star, args, chunksize=chunk)
        for i, img in enumerate(pages):
            out.append(img)
            if progress:
                progress(i + 1, n)
    except BaseException:  # Ctrl-C or an error: drop the pages not started, wait only for the running ones
        ex.shutdown(wait=True, cancel_futures=True)
        raise
    ex.shutdown(wait=True)
    return out


def pdf_from_jobs(jobs: Iterable[PageJob], title: str = "", quality: int = JPEG_QUALITY,
                  workers: int | None = None, progress: Progress | None = None, optimize: bool = False,
                  image_format: str = "indexed") -> bytes:
    jobs = list(jobs)
    images = encode_all(jobs, quality, workers, progress, optimize, image_format)
    return write_pdf([(img, job.paper_mm) for img, job in zip(images, jobs, strict=True)], title=title)
