from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()


class Sport(db.Model):
    id = db.Column(db.Integer, primary_key=True)


class Workout(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    sport_id = db.Column(db.Integer)
