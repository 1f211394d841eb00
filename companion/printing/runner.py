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
from collections.abc import Iterable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from companion.printing.engine import JPEG_QUALITY, PageJob, Progress, encode
from companion.printing.pdf import PdfImage, write_pdf


def _encode_star(args: tuple[PageJob, int, bool, str]) -> PdfImage:
    return encode(*args)


def _ignore_sigint() -> None:
    """In a worker process: Ctrl-C (SIGINT to the whole process group) is the parent's to handle;
    the worker finishes its page and is shut down, instead of printing its own traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
        for i, img in enumerate(ex.map(_encode_star, args, chunksize=chunk)):
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
