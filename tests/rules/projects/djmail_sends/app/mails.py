from djmail import template_mail


class MagicMailBuilder(template_mail.MagicMailBuilder):
    pass


class WelcomeMail(template_mail.InlineCSSTemplateMail):
    name = "welcome"


mail_builder = MagicMailBuilder(template_mail_cls=template_mail.InlineCSSTemplateMail)
