import sqlalchemy.orm as orm

Session = orm.scoped_session(orm.sessionmaker())
