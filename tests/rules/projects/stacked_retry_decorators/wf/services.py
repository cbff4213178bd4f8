# select: RES204
import retrying
from oslo_config import cfg

from wf import exc as wf_exc
from wf import db


@retrying.retry(
    retry_on_exception=wf_exc.retry_on_transient_db_errors,
    wait_fixed=cfg.CONF.wf.retry_wait_fixed_msec,
    wait_jitter_max=cfg.CONF.wf.retry_max_jitter_msec,
)
@retrying.retry(
    retry_on_exception=wf_exc.retry_on_connection_errors,
    stop_max_delay=cfg.CONF.wf.retry_stop_max_msec,
    wait_fixed=cfg.CONF.wf.retry_wait_fixed_msec,
    wait_jitter_max=cfg.CONF.wf.retry_max_jitter_msec,
)
def request_next_tasks(ex_id):
    try:
        db.get(ex_id)
    except Exception as e:
        # the connection retries of both stacks multiply; the write-conflict retries, which
        # never stop, let no write conflict out to multiply
        fail_workflow(ex_id, e)  # expect: RES204 "retrying (attempts unknown) (wf/services.py:14) x retrying (attempts unknown) (wf/services.py:35)"
        return


@retrying.retry(
    retry_on_exception=wf_exc.retry_on_transient_db_errors,
    wait_fixed=cfg.CONF.wf.retry_wait_fixed_msec,
    wait_jitter_max=cfg.CONF.wf.retry_max_jitter_msec,
)
@retrying.retry(
    retry_on_exception=wf_exc.retry_on_connection_errors,
    stop_max_delay=cfg.CONF.wf.retry_stop_max_msec,
    wait_fixed=cfg.CONF.wf.retry_wait_fixed_msec,
    wait_jitter_max=cfg.CONF.wf.retry_max_jitter_msec,
)
def fail_workflow(ex_id, error):
    rec = db.get(ex_id)
    rec.error = str(error)
    db.save(rec)
