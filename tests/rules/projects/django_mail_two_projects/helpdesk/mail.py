from django.core.mail import send_mail


def notify(ticket):
    send_mail("Ticket", ticket.text, None, [ticket.owner])
