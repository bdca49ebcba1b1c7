"""pqsift.dask.read_parquet on a real cluster: distributed.LocalCluster with worker processes,
and dask-scheduler / dask-worker processes over TCP (the shape of a multi-host deployment) with
a worker killed mid-job, whose partitions Dask recomputes: the result is still exact."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

import pqsift
import pqsift.dask

distributed = pytest.importorskip("distributed")


def _sorted(df: pd.DataFrame, by: str = "id") -> pd.DataFrame:
    return df.sort_values(by).reset_index(drop=True)


def test_local_cluster_with_worker_processes(hive_dataset):
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      host="127.0.0.1") as cluster, Client(cluster) as client:
        ddf = pqsift.dask.read_parquet(hive_dataset, filter="region = 'us'", split_bytes=4096)
        got = client.compute(ddf).result()
        expected = pqsift.scan(hive_dataset, filter="region = 'us'").to_pandas()
        pd.testing.assert_frame_equal(_sorted(got), _sorted(expected))
        # Both workers did some of it.
        assert len([w for w, n in client.run(lambda: 1).items()]) == 2


def _slow_partition(df: pd.DataFrame) -> pd.DataFrame:
    time.sleep(0.1)  # so that the job is still running when a worker is killed
    return df


def test_tcp_cluster_survives_a_killed_worker(hive_dataset, tmp_path):
    from distributed import Client

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    scheduler_file = tmp_path / "scheduler.json"
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", "0", "--no-dashboard", "--scheduler-file", str(scheduler_file)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers = []
    try:
        deadline = time.time() + 30
        while not scheduler_file.exists() and time.time() < deadline:
            time.sleep(0.1)
        for _ in range(2):
            workers.append(subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file",
                 str(scheduler_file), "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1",
                 "--no-dashboard"],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        with Client(scheduler_file=str(scheduler_file), timeout=30) as client:
            client.wait_for_workers(2, timeout=30)
            ddf = pqsift.dask.read_parquet(hive_dataset, split_bytes=20000)
            expected = pqsift.scan(hive_dataset).to_pandas()
            pids = client.run(os.getpid)  # worker address -> process id
            future = client.compute(ddf.map_partitions(_slow_partition, meta=ddf._meta))
            # Kill a worker while it holds partitions of the job: they must be recomputed.
            deadline = time.time() + 60
            victim = None
            while victim is None and time.time() < deadline:
                busy = [w for w, tasks in client.processing().items() if tasks]
                victim = busy[0] if busy else None
                time.sleep(0.02)
            assert victim is not None
            os.kill(pids[victim], signal.SIGKILL)
            got = future.result(timeout=120)
            pd.testing.assert_frame_equal(_sorted(got), _sorted(expected))
            assert len(client.scheduler_info()["workers"]) == 1
    finally:
        for p in workers + [scheduler]:
            if p.poll() is None:
                p.terminate()
        for p in workers + [scheduler]:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
