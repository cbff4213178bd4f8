from sqlalchemy import Column, Integer
from sqlalchemy.orm import declarative_base

Base = declarative_base()


class Shelf(Base):
    __tablename__ = "shelf"
    id = Column(Integer, primary_key=True)
    user_id = Column(Integer)
