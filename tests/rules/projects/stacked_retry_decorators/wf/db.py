import mongoengine

from wf import dbexc


def get(ex_id):
    return mongoengine.connection.get_db().tasks.find_one({"_id": ex_id})


def save(rec):
    try:
        rec.save(save_condition={"rev": rec.rev})
    except mongoengine.SaveConditionError:
        raise dbexc.WriteConflictError()
