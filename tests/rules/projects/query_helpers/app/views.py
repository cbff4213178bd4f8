from app.models import User


def announcement(body):
    # a row of the query the loop walks is a User, whose method delivers over LMTP
    for user in User.query.all():
        user.sendmail(body)  # expect: RES301 "`User.query.all()` began"


def welcome(user_id, body):
    user = User.query.get(user_id)
    user.sendmail(body)  # expect: RES301 "`User.query.get()` began"


def roster():
    for user in User.query.filter_by(active=True).all():
        user.describe()
