from celery import shared_task


@shared_task
def index_note(pk):
    return pk
