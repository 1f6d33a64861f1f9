import datetime


def overlaps(a_start, a_end, b_start, b_end):
    return a_start < b_end and b_start < a_end


def days_ahead(start, today=None):
    today = today or datetime.date.today()
    return (start - today).days
