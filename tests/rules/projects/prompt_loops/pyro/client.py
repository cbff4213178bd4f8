from .utils import ainput


class BadRequest(Exception):
    pass


class Client:
    password = None

    async def check_password(self, password):
        return await self.session.invoke(("CheckPassword", password))

    async def recover_password(self, code):
        return await self.session.invoke(("RecoverPassword", code))

    async def authorize(self):
        # each pass asks again, in a prompt of another module; the inner loop too: no layer
        while True:
            if not self.password:
                self.password = await ainput("Enter password (empty to recover): ", hide=True)
            try:
                if not self.password:
                    while True:
                        recovery_code = await ainput("Enter recovery code: ")
                        try:
                            return await self.recover_password(recovery_code)
                        except BadRequest as e:
                            print(e)
                else:
                    return await self.check_password(self.password)
            except BadRequest as e:
                print(e)
                self.password = None
