# select: RES203
# A failure path that calls the method again without ``form`` asks for something else (the
# merged forms' columns): a fallback, not a retry (indico's registration settings).
from app.settings.proxy import EventSettingsProxy


class RegistrationSettingsProxy(EventSettingsProxy):
    def get_participant_list_columns(self, event, form=None):
        if form is None:
            # columns of the merged forms
            return self.get(event, 'participant_list_columns')
        else:
            try:
                form_columns = self.get(event, 'participant_list_form_columns')[str(form.id)]
                return list(map(int, form_columns))
            except (ValueError, KeyError):
                # no settings for this form: fall back to the merged form's
                column_names = self.get_participant_list_columns(event)
                return [form.field_id(name) for name in column_names]
