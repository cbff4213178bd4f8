# select: RES204
from django.db import IntegrityError, OperationalError, models, transaction

from ordering.retrying import retry_on


class OrderedModel(models.Model):
    order = models.PositiveIntegerField(null=True)

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.order is None:
            self._save_without_order(*args, **kwargs)
        else:
            super().save(*args, **kwargs)

    @retry_on((IntegrityError, OperationalError))
    def _save_without_order(self, *args, **kwargs):
        with transaction.atomic():
            self.order = 1
            super().save(*args, **kwargs)

    @retry_on(OperationalError)
    def swap(self, order: int):
        # ``order`` is an int, never None: save() does not reach the inner retry
        with transaction.atomic():
            if order < 0:
                raise ValueError(order)
            self.order = order
            self.save(update_fields=["order"])

    @retry_on(OperationalError)
    def to(self, order: int):
        self._move_to(order)

    def _move_to(self, order: int):
        if self.order == order:
            return
        self.order = order
        self.save(update_fields=["order"])

    @retry_on(OperationalError)
    def reset(self):
        self.order = None
        self.save()  # expect: RES204 "through `save` -> `_save_without_order`"

    @retry_on(OperationalError)
    def move(self, order):
        # no annotation: ``order`` may be None
        self.order = order
        self.save()  # expect: RES204 "through `save` -> `_save_without_order`"

    @retry_on(OperationalError)
    def touch(self, order: int):
        self.order = order
        if order > 10:
            self.order = None
        self.save()  # expect: RES204 "through `save` -> `_save_without_order`"

    @retry_on(OperationalError)
    def refresh(self):
        self.save()  # expect: RES204 "through `save` -> `_save_without_order`"
